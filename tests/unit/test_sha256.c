/* util/sha256 against the test vectors of FIPS 180-4's examples (NIST,
 * "SHA256.pdf" of the Cryptographic Standards and Guidelines examples):
 * "abc", the 448-bit message, and one million 'a' (sec. B of FIPS 180-2),
 * plus the empty message; fed whole and in pieces of every size 1..130. */
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "lib/util/sha256.h"

static void hash_str(const char *s, size_t piece, char hex[65])
{
    Sha256 c;
    sha256_init(&c);
    size_t len = strlen(s);
    for (size_t i = 0; i < len; i += piece)
        sha256_update(&c, s + i, len - i < piece ? len - i : piece);
    sha256_final_hex(&c, hex);
}

int main(void)
{
    static const char *const msg[] = {
        "abc", "", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopq"
        "klmnopqrlmnopqrsmnopqrstnopqrstu"};
    static const char *const want[] = {
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
        /* the 896-bit message of the SHA-512 examples, hashed by SHA-256
         * (the value coreutils' sha256sum gives) */
        "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"};
    char hex[65];
    for (int i = 0; i < 4; i++)
        for (size_t piece = 1; piece <= 130; piece++) {
            hash_str(msg[i], piece, hex);
            CHECK_EQ_STR(hex, want[i]);
        }
    char *a = malloc(1000001);
    memset(a, 'a', 1000000);
    a[1000000] = '\0';
    hash_str(a, 1000000, hex);
    CHECK_EQ_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    hash_str(a, 4099, hex);
    CHECK_EQ_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(a);
    /* lengths around the padding boundary: 55, 56, 63, 64 times 'x' (values
     * from coreutils' sha256sum), and whole or byte by byte agree */
    static const struct {
        size_t len;
        const char *hex;
    } pad[] = {{55, "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072"},
               {56, "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e"},
               {63, "75220b47218278e656f2013bb8f0c455a25eaf01e86c64924e9d48d89776d6f2"},
               {64, "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c"}};
    for (int i = 0; i < 4; i++) {
        char s[80];
        memset(s, 'x', pad[i].len);
        s[pad[i].len] = '\0';
        hash_str(s, 7, hex);
        CHECK_EQ_STR(hex, pad[i].hex);
    }
    for (size_t len = 50; len < 70; len++) {
        char s[80], h1[65], h2[65];
        memset(s, 'x', len);
        s[len] = '\0';
        hash_str(s, len, h1);
        hash_str(s, 1, h2);
        CHECK_EQ_STR(h1, h2);
    }
    CHECK(sha256_file_hex("/nonexistent/cgt-sha256-test", hex) == -1);
    UNIT_MAIN_END();
}
