// CRC-32C in four lanes: four independent registers, so that a processor with a CRC32
// instruction (latency 3, one a cycle) keeps it busy; 32 bytes a step.
#include "CChecksum.h"

#include <pthread.h>
#include <string.h>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

/// The reflected Castagnoli polynomial.
static const uint32_t polynomial = 0x82F63B78u;
static uint32_t table[256];
static pthread_once_t table_made = PTHREAD_ONCE_INIT;

static void make_table(void) {
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ polynomial : c >> 1;
        table[n] = c;
    }
}

/// One little-endian word of eight bytes into `crc`, a byte at a time: what the CRC32
/// instruction does with a 64-bit operand.
static uint32_t word_by_table(uint32_t crc, const unsigned char *p) {
    for (int k = 0; k < 8; k++) crc = table[(crc ^ p[k]) & 0xFF] ^ (crc >> 8);
    return crc;
}

void cchecksum_lanes_portable(uint32_t lanes[4], const void *bytes, size_t blocks) {
    pthread_once(&table_made, make_table);
    const unsigned char *p = bytes;
    for (size_t i = 0; i < blocks; i++, p += 32) {
        for (int lane = 0; lane < 4; lane++) lanes[lane] = word_by_table(lanes[lane], p + 8 * lane);
    }
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static void lanes_by_instruction(
    uint32_t lanes[4], const unsigned char *p, size_t blocks) {
    uint64_t a = lanes[0], b = lanes[1], c = lanes[2], d = lanes[3];
    for (size_t i = 0; i < blocks; i++, p += 32) {
        uint64_t w[4];
        memcpy(w, p, 32);
        a = _mm_crc32_u64(a, w[0]);
        b = _mm_crc32_u64(b, w[1]);
        c = _mm_crc32_u64(c, w[2]);
        d = _mm_crc32_u64(d, w[3]);
    }
    lanes[0] = (uint32_t)a;
    lanes[1] = (uint32_t)b;
    lanes[2] = (uint32_t)c;
    lanes[3] = (uint32_t)d;
}
#endif

void cchecksum_lanes(uint32_t lanes[4], const void *bytes, size_t blocks) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("sse4.2")) {
        lanes_by_instruction(lanes, bytes, blocks);
        return;
    }
#endif
    cchecksum_lanes_portable(lanes, bytes, blocks);
}

void cchecksum_identity(uint64_t words[4], const void *bytes, size_t count) {
    uint32_t lanes[4] = {0xFFFFFFFFu, 0x6A09E667u, 0xBB67AE85u, 0x3C6EF372u};
    size_t whole = count / 32;
    const unsigned char *p = bytes;
    cchecksum_lanes(lanes, p, whole);
    unsigned char last[32] = {0};
    size_t rest = count - whole * 32;
    if (rest > 0) {
        memcpy(last, p + whole * 32, rest);
        cchecksum_lanes(lanes, last, 1);
    }
    uint64_t mix = 0x9E3779B97F4A7C15u ^ (uint64_t)count;
    for (size_t i = 0; i < whole * 4; i++) {
        uint64_t w;
        memcpy(&w, p + 8 * i, 8);
        mix = (mix ^ w) * 0xFF51AFD7ED558CCDu;
        mix ^= mix >> 29;
    }
    for (size_t i = 0; i < (rest + 7) / 8; i++) {
        uint64_t w;
        memcpy(&w, last + 8 * i, 8);
        mix = (mix ^ w) * 0xFF51AFD7ED558CCDu;
        mix ^= mix >> 29;
    }
    words[0] = (uint64_t)lanes[0] << 32 | lanes[1];
    words[1] = (uint64_t)lanes[2] << 32 | lanes[3];
    words[2] = (uint64_t)count;
    words[3] = mix;
}
