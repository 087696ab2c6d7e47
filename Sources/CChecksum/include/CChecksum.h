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

#endif
