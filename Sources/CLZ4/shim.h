// LZ4, for the journal's merge bases a first pull packs together.
#include <lz4.h>
