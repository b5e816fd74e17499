"""CRC-64 (ECMA-182 polynomial, reflected: 0xC96C5795D7870F42, init and
final xor all ones), as the seals of cgt's result files and checkpoints
use it (src/lib/util/crc64.c), written here independently for the tests
that re-seal edited files.  Import with PYTHONPATH=tests/scripts."""

_T = [0] * 256
for _i in range(256):
    _c = _i
    for _ in range(8):
        _c = (_c >> 1) ^ 0xC96C5795D7870F42 if _c & 1 else _c >> 1
    _T[_i] = _c


def crc64(b):
    c = 0xFFFFFFFFFFFFFFFF
    for x in b:
        c = _T[(c ^ x) & 0xff] ^ (c >> 8)
    return c ^ 0xFFFFFFFFFFFFFFFF
