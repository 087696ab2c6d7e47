/* The floor of a reading command that is never stale: one stat of every file in FOLDER, as
 * calgw's listings make it (fstatat relative to the open folder, on THREADS threads taking
 * runs of 1,024 names in turn), after the names are read. A file rewritten in place changes
 * no folder's stamp, so only its own stat tells that it changed: no index can skip this.
 *
 *   stat_floor FOLDER [THREADS]      (default 2)
 *
 * Prints the milliseconds the stats took (the names' reading not counted), the count, and the
 * milliseconds reading the names took: what a listing pays besides when the folder changed
 * since it was last listed (within the racy margin, its own last edit counts).
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

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: stat_floor FOLDER [THREADS]\n");
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
    for (struct dirent *e; (e = readdir(dir));) {
        if (e->d_name[0] == '.') continue;
        if (count == capacity) names = realloc(names, sizeof(char *) * (capacity *= 2));
        names[count++] = strdup(e->d_name);
    }
    clock_gettime(CLOCK_MONOTONIC, &n1);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pthread_t workers[64];
    for (int t = 0; t < threads; t++) pthread_create(&workers[t], NULL, work, NULL);
    for (int t = 0; t < threads; t++) pthread_join(workers[t], NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%.1f %d %.1f\n", (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6, count,
           (n1.tv_sec - n0.tv_sec) * 1e3 + (n1.tv_nsec - n0.tv_nsec) / 1e6);
    return 0;
}
