// Makes a Zstandard dictionary from a content file and samples: the content as written, with
// the entropy tables Zstandard would build for the samples (ZDICT_finalizeDictionary), so a
// small input compressed with it need not build its own tables.
//
//   finalize CONTENT SAMPLES OUT     SAMPLES: each sample as a 4-byte little-endian length, then its bytes
#define ZDICT_STATIC_LINKING_ONLY
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zdict.h>

static unsigned char *slurp(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(1); }
    fseek(f, 0, SEEK_END);
    *size = (size_t)ftell(f);
    rewind(f);
    unsigned char *bytes = malloc(*size);
    if (fread(bytes, 1, *size, f) != *size) { perror(path); exit(1); }
    fclose(f);
    return bytes;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: finalize CONTENT SAMPLES OUT\n"); return 2; }
    size_t content_size, samples_size;
    unsigned char *content = slurp(argv[1], &content_size);
    unsigned char *samples = slurp(argv[2], &samples_size);
    unsigned char *joined = malloc(samples_size);
    size_t *sizes = malloc(sizeof(size_t) * (samples_size / 4 + 1));
    unsigned count = 0;
    size_t at = 0, joined_size = 0;
    while (at + 4 <= samples_size) {
        unsigned length = samples[at] | samples[at + 1] << 8 | samples[at + 2] << 16 | (unsigned)samples[at + 3] << 24;
        at += 4;
        memcpy(joined + joined_size, samples + at, length);
        joined_size += length;
        sizes[count++] = length;
        at += length;
    }
    size_t capacity = content_size + 4096;
    unsigned char *out = malloc(capacity);
    ZDICT_params_t params = {0};
    params.compressionLevel = 1;
    params.dictID = 1;
    size_t made = ZDICT_finalizeDictionary(out, capacity, content, content_size, joined, sizes, count, params);
    if (ZDICT_isError(made)) { fprintf(stderr, "finalize: %s\n", ZDICT_getErrorName(made)); return 1; }
    FILE *f = fopen(argv[3], "wb");
    fwrite(out, 1, made, f);
    fclose(f);
    return 0;
}
