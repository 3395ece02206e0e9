#define _GNU_SOURCE
#include "taxpro_heap.h"

#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static void *populate(void *argument) {
  uintptr_t bytes = (uintptr_t)argument;
  /* The top chunk ends at the break; `keepcost` is its size. (mallinfo2 walks the free lists under the arena's lock:
   * cheap early in a process, which is when this is asked for.) */
  struct mallinfo2 info = mallinfo2();
  void *current = sbrk(0);
  if (current == (void *)-1) return NULL;
  uintptr_t end_of_heap = (uintptr_t)current;
  if (info.keepcost > end_of_heap) return NULL;
  uintptr_t top = end_of_heap - info.keepcost;
  long page_size = sysconf(_SC_PAGESIZE);
  if (page_size <= 0) return NULL;
  uintptr_t page = (uintptr_t)page_size;
  uintptr_t start = (top + page - 1) & ~(page - 1);
  uintptr_t end = bytes > end_of_heap - top ? end_of_heap : top + bytes;
  end &= ~(page - 1);
  if (end > start) (void)madvise((void *)start, end - start, MADV_POPULATE_WRITE);
  return NULL;
}

void taxpro_heap_prefault(size_t bytes) {
  pthread_attr_t attributes;
  if (pthread_attr_init(&attributes) != 0) return;
  pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
  pthread_t thread;
  (void)pthread_create(&thread, &attributes, populate, (void *)(uintptr_t)bytes);
  pthread_attr_destroy(&attributes);
}

void taxpro_heap_grow_and_prefault(size_t bytes) {
  struct mallinfo2 info = mallinfo2();
  /* A block larger than the top chunk makes glibc grow the break; below the mmap threshold `tuneAllocator` sets
   * (32 MiB) it comes from the heap, not from a mapping of its own. */
  if (info.keepcost < bytes && bytes < (16u << 20)) {
    void *volatile block = malloc(bytes); /* volatile: not a pair the compiler may drop */
    free(block);
  }
  taxpro_heap_prefault(bytes);
}
