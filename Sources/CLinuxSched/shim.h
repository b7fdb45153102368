#ifndef QUIRE_CLINUXSCHED_SHIM_H
#define QUIRE_CLINUXSCHED_SHIM_H

/* sched_setattr and sched_getattr, which glibc 2.36 does not wrap: a background lane asks for
   a short slice with them (the field is `sched_runtime`; Linux 6.12 and later read it as the
   slice of a fair thread, older kernels ignore it). */

#ifdef __linux__
#include <linux/sched/types.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Sets the calling thread's fair policy, nice value and slice (ns); 0, or -1 and errno. */
static inline int quire_sched_set_fair(unsigned int policy, int nice, unsigned long long slice_ns) {
    struct sched_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = SCHED_ATTR_SIZE_VER0;
    attr.sched_policy = policy;
    attr.sched_nice = nice;
    attr.sched_runtime = slice_ns;
    return (int)syscall(SYS_sched_setattr, 0, &attr, 0);
}

/* The calling thread's slice (ns) as the kernel reports it; 0 when it says nothing. */
static inline unsigned long long quire_sched_slice(void) {
    struct sched_attr attr;
    memset(&attr, 0, sizeof attr);
    if (syscall(SYS_sched_getattr, 0, &attr, SCHED_ATTR_SIZE_VER0, 0) != 0) return 0;
    return attr.sched_runtime;
}
#endif

#endif
