/* The three widths of src/lib/grundy/grundy_kern.h for one instruction set,
 * included by src/lib/grundy/grundy.c with GVB (the bytes of a vector), KSUF (what
 * follows the width in each name: nothing for the baseline, x for AVX2)
 * and REV_B, REV_H, REV_W (the lane reversals of a GVB-byte vector of
 * uint8_t, uint16_t, uint32_t) defined.  Not a header of its own (no
 * include guard, on purpose). */
#define KW(w) KW_(w, KSUF)
#define KW_(w, s) KW__(w, s)
#define KW__(w, s) w##s
#define GV uint8_t
#define GW 8
#define GREV REV_B
#define KN(f) KN_(f, KW(8))
#include "lib/grundy/grundy_kern.h"
#undef GV
#undef GW
#undef KN
#undef GREV
#define GV uint16_t
#define GW 16
#define GREV REV_H
#define KN(f) KN_(f, KW(16))
#include "lib/grundy/grundy_kern.h"
#undef GV
#undef GW
#undef KN
#undef GREV
#define GV uint32_t
#define GW 32
#define GREV REV_W
#define KN(f) KN_(f, KW(32))
#include "lib/grundy/grundy_kern.h"
#undef GV
#undef GW
#undef KN
#undef GREV
#undef KW
#undef KW_
#undef KW__
