/* The floor of a reading command that is never stale: one stat of every file in FOLDER, as
 * calgw's listings make it (fstatat relative to the open folder, on THREADS threads taking
 * runs of 1,024 names in turn), after the names are read. A file rewritten in place changes
 * no folder's stamp, so only its own stat tells that it changed: no index can skip this.
 *
 *   stat_floor FOLDER [THREADS [READ_LIST [NAMES [WRITE]]]]      (default 2)
 *
 * Prints the milliseconds the stats took (the names' reading not counted), the count, and the
 * milliseconds reading the names took: what a listing pays besides when the folder changed
 * since it was last listed (within the racy margin, its own last edit counts). With
 * READ_LIST, a file of names in FOLDER one to a line (the files whose occurrences a listing
 * shows), each of those files is then opened and read whole on the same threads, and a fourth
 * number says how many milliseconds that took: what an answer must pay to show them, short
 * of a cache of their contents (READ_LIST "-" reads none). With NAMES, a file of FOLDER's
 * names one to a line, the names are taken from it instead of from the folder: what a program
 * that keeps its own list of the folder's names, good while the folder's stamp is unchanged
 * (calgw's listing index), reads in their place; the third number is then that file's reading
 * (NAMES "-": the names read from the folder). With WRITE, a file in FOLDER, that file is then
 * written again with its own bytes as an edit that cannot lose it writes it: into a new file
 * beside it, flushed to the disk, renamed over it, the folder flushed too. The last number
 * printed is then the milliseconds that took: what an edit pays on top of finding its file.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char **names;
static int count;
static int folder;
static atomic_int next;
static char **reads;
static int readCount;
static atomic_int nextRead;

static void *work(void *unused) {
    (void)unused;
    struct stat info;
    for (;;) {
        int start = atomic_fetch_add(&next, 1024);
        if (start >= count) return NULL;
        int end = start + 1024 < count ? start + 1024 : count;
        for (int i = start; i < end; i++) fstatat(folder, names[i], &info, 0);
    }
}

static void *readWork(void *unused) {
    (void)unused;
    char buffer[65536];
    for (;;) {
        int i = atomic_fetch_add(&nextRead, 1);
        if (i >= readCount) return NULL;
        int fd = openat(folder, reads[i], O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        while (read(fd, buffer, sizeof buffer) > 0) {}
        close(fd);
    }
}

/* The non-empty lines of the file at PATH, each a new string, into *LINES (*COUNT of them);
 * 0, or 1 after saying why the file could not be read. */
static int readLines(const char *path, char ***lines, int *count) {
    FILE *file = fopen(path, "r");
    if (!file) {
        perror(path);
        return 1;
    }
    int capacity = 1024;
    *lines = malloc(sizeof(char *) * capacity);
    *count = 0;
    char line[4096];
    while (fgets(line, sizeof line, file)) {
        line[strcspn(line, "\n")] = 0;
        if (!line[0]) continue;
        if (*count == capacity) *lines = realloc(*lines, sizeof(char *) * (capacity *= 2));
        (*lines)[(*count)++] = strdup(line);
    }
    fclose(file);
    return 0;
}

/* Writes the file NAME in the folder again with its own bytes, durably (see above): 0, or 1
 * after saying what failed. */
static int rewriteDurably(const char *name) {
    char temporary[4096];
    struct stat info;
    int in = openat(folder, name, O_RDONLY | O_CLOEXEC);
    if (in < 0 || fstat(in, &info) != 0) {
        perror(name);
        if (in >= 0) close(in);
        return 1;
    }
    size_t length = (size_t)info.st_size, done = 0;
    char *bytes = malloc(length ? length : 1);
    ssize_t got = 1;
    while (bytes && done < length && (got = read(in, bytes + done, length - done)) > 0) done += (size_t)got;
    close(in);
    snprintf(temporary, sizeof temporary, ".%s.floor.tmp", name);
    int out = bytes && done == length ? openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644) : -1;
    int failed = out < 0 || write(out, bytes, length) != (ssize_t)length || fsync(out) != 0 || close(out) != 0
        || renameat(folder, temporary, folder, name) != 0 || fsync(folder) != 0;
    free(bytes);
    if (failed) {
        perror(name);
        return 1;
    }
    return 0;
}

static double since(struct timespec a) {
    struct timespec b;
    clock_gettime(CLOCK_MONOTONIC, &b);
    return (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: stat_floor FOLDER [THREADS [READ_LIST [NAMES [WRITE]]]]\n");
        return 2;
    }
    int threads = argc > 2 ? atoi(argv[2]) : 2;
    if (threads < 1 || threads > 64) threads = 2;
    folder = open(argv[1], O_RDONLY | O_DIRECTORY);
    DIR *dir = folder < 0 ? NULL : fdopendir(dup(folder));
    if (!dir) {
        perror(argv[1]);
        return 1;
    }
    struct timespec n0, n1;
    clock_gettime(CLOCK_MONOTONIC, &n0);
    int capacity = 1024;
    names = malloc(sizeof(char *) * capacity);
    if (argc > 4 && strcmp(argv[4], "-") != 0) {
        free(names);
        if (readLines(argv[4], &names, &count) != 0) return 1;
    } else {
        for (struct dirent *e; (e = readdir(dir));) {
            if (e->d_name[0] == '.') continue;
            if (count == capacity) names = realloc(names, sizeof(char *) * (capacity *= 2));
            names[count++] = strdup(e->d_name);
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &n1);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pthread_t workers[64];
    for (int t = 0; t < threads; t++) pthread_create(&workers[t], NULL, work, NULL);
    for (int t = 0; t < threads; t++) pthread_join(workers[t], NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%.1f %d %.1f", (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6, count,
           (n1.tv_sec - n0.tv_sec) * 1e3 + (n1.tv_nsec - n0.tv_nsec) / 1e6);
    if (argc > 3 && strcmp(argv[3], "-") != 0) {
        if (readLines(argv[3], &reads, &readCount) != 0) return 1;
        struct timespec r0;
        clock_gettime(CLOCK_MONOTONIC, &r0);
        for (int t = 0; t < threads; t++) pthread_create(&workers[t], NULL, readWork, NULL);
        for (int t = 0; t < threads; t++) pthread_join(workers[t], NULL);
        printf(" %.1f", since(r0));
    }
    if (argc > 5) {
        struct timespec w0;
        clock_gettime(CLOCK_MONOTONIC, &w0);
        if (rewriteDurably(argv[5]) != 0) return 1;
        printf(" %.1f", since(w0));
    }
    printf("\n");
    return 0;
}
