#ifndef CCHECKSUM_H
#define CCHECKSUM_H
/// CRC-32C (Castagnoli) in four lanes, for the listing index's checksum: the processor's CRC32
/// instruction where it has one (x86-64 with SSE 4.2), the same values from a table elsewhere.
#include <stddef.h>
#include <stdint.h>

/// Adds `blocks` blocks of 32 bytes at `bytes` to the four lanes: the block's first eight bytes
/// (as a little-endian word) to lane 0, the next eight to lane 1, and so on, each lane a
/// CRC-32C register without the usual inversions (the caller chooses the starting values).
void cchecksum_lanes(uint32_t lanes[4], const void *bytes, size_t blocks);

/// `cchecksum_lanes` by a table, whatever the processor: the same values (for tests).
void cchecksum_lanes_portable(uint32_t lanes[4], const void *bytes, size_t blocks);

/// An identity of `count` bytes in four words, cheap enough to make for every item a first
/// pull copies: the four CRC-32C lanes over the bytes (zero-padded to whole blocks) as two
/// words, the count as the third, and the fourth a multiply-and-shift mix of every eight bytes.
/// Not a cryptographic hash: it tells copies of the same bytes apart from other bytes met by
/// chance, not from bytes made to collide with them.
void cchecksum_identity(uint64_t words[4], const void *bytes, size_t count);

#endif
