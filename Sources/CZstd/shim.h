// Zstandard, for the journal's merge bases: each compressed alone against a dictionary.
#include <zstd.h>
