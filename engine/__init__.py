"""The rules of Lupus, pure: no Flask, no SQL, no clock, no I/O."""
