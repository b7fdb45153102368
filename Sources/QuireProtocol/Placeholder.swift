// Placeholder: this module is built by a later change.
