#ifndef QUIRE_CSODIUM_SHIM_H
#define QUIRE_CSODIUM_SHIM_H
// libsodium for Swift: Argon2id, XChaCha20-Poly1305, keyed BLAKE2b and the helpers around them
// (random bytes, zeroing, constant-time comparison, base64). Debian's header lives in
// /usr/include; QuireCrypto is the only module that imports this one.
#include <sodium.h>
#endif
