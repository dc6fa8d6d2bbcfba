// inflate-benchmark: one-shot zlib decompression of every blob of an OSM PBF file, zlib's uncompress() against
// libdeflate's libdeflate_zlib_decompress() (the two candidates for OSMPBFReader; it keeps the faster, libdeflate).
// Each round decompresses every zlib blob once with each library into the same buffer; prints the medians.
// Built and run by `Tools/bench-import --pbf` (cc -O2 inflate-benchmark.c -lz -ldeflate); it only measures.
//
//   inflate-benchmark FILE.osm.pbf [ROUNDS]
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <zlib.h>
#include <libdeflate.h>
static uint64_t varint(const uint8_t **p) { uint64_t v = 0; int s = 0; while (**p & 0x80) { v |= (uint64_t)(**p & 0x7f) << s; s += 7; (*p)++; } v |= (uint64_t)**p << s; (*p)++; return v; }
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
int main(int argc, char **argv) {
  if (argc < 2) { fprintf(stderr, "usage: inflate-benchmark FILE.osm.pbf [ROUNDS]\n"); return 2; }
  FILE *f = fopen(argv[1], "rb");
  if (!f) { perror(argv[1]); return 1; } fseek(f, 0, SEEK_END); long n = ftell(f); rewind(f);
  uint8_t *buf = malloc(n); fread(buf, 1, n, f); fclose(f);
  static const uint8_t *zs[1 << 20]; static size_t zl[1 << 20], rs[1 << 20]; int count = 0; size_t total = 0;
  long pos = 0;
  while (pos < n) {
    uint32_t hl = (buf[pos] << 24) | (buf[pos+1] << 16) | (buf[pos+2] << 8) | buf[pos+3]; pos += 4;
    const uint8_t *p = buf + pos, *e = p + hl; uint64_t ds = 0;
    while (p < e) { uint64_t k = varint(&p); if ((k & 7) == 2) { uint64_t l = varint(&p); p += l; } else { uint64_t v = varint(&p); if ((k >> 3) == 3) ds = v; } }
    pos += hl;
    p = buf + pos; e = p + ds; const uint8_t *z = 0; size_t zlen = 0, raw = 0;
    while (p < e) { uint64_t k = varint(&p); if ((k & 7) == 2) { uint64_t l = varint(&p); if ((k >> 3) == 3) { z = p; zlen = l; } p += l; } else { uint64_t v = varint(&p); if ((k >> 3) == 2) raw = v; } }
    if (z && count < (1 << 20)) { zs[count] = z; zl[count] = zlen; rs[count] = raw; total += raw; count++; }
    pos += ds;
  }
  uint8_t *out = malloc(64 << 20);
  struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
  int rounds = argc > 2 ? atoi(argv[2]) : 5;
  if (rounds < 1 || rounds > 64) rounds = 5;
  double bz[64], bd[64];
  for (int r = 0; r < rounds; r++) {
    double t = now();
    for (int i = 0; i < count; i++) { uLongf ol = rs[i]; if (uncompress(out, &ol, zs[i], zl[i]) != Z_OK || ol != rs[i]) { puts("zlib fail"); return 1; } }
    bz[r] = now() - t; t = now();
    for (int i = 0; i < count; i++) { size_t got; if (libdeflate_zlib_decompress(d, zs[i], zl[i], out, rs[i], &got) || got != rs[i]) { puts("deflate fail"); return 1; } }
    bd[r] = now() - t;
  }
  qsort(bz, rounds, sizeof(double), cmp); qsort(bd, rounds, sizeof(double), cmp);
  printf("%s: %d blobs, %.1f MB raw; median of %d: zlib uncompress %.1f ms (%.0f MB/s), libdeflate %.1f ms (%.0f MB/s), %.2fx\n", argv[1], count, total / 1e6, rounds,
         bz[rounds/2] * 1e3, total / bz[rounds/2] / 1e6, bd[rounds/2] * 1e3, total / bd[rounds/2] / 1e6, bz[rounds/2] / bd[rounds/2]);
  return 0;
}
