#ifndef TAXPRO_HEAP_H
#define TAXPRO_HEAP_H

#include <stddef.h>

/* Faults in, on a detached thread of its own, the next `bytes` of the heap past what glibc's allocator has handed out
 * so far (the start of its top chunk), up to the end of the heap's current break: memory a large allocation is about
 * to take, made present while the caller goes on (Linux's MADV_POPULATE_WRITE, from 5.14; nothing happens where the
 * kernel does not know it). Only the main heap: `taxpro lsp` runs with one arena (`tuneAllocator`). The pages are zeroed
 * anonymous memory either way; populating them changes no contents, only when the page faults are taken. */
void taxpro_heap_prefault(size_t bytes);

/* `taxpro_heap_prefault`, after first growing the heap's break to at least `bytes` past the top chunk's start if it
 * ends sooner (one block taken and given back at once: the break grows by the block and glibc's top pad, and with the
 * trim threshold `tuneAllocator` sets it stays there). For a process's start, before anything has grown the heap. */
void taxpro_heap_grow_and_prefault(size_t bytes);

#endif
