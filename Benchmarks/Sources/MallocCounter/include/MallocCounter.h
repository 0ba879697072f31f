#ifndef MALLOC_COUNTER_H
#define MALLOC_COUNTER_H

#include <stdint.h>

/// The number of allocation calls (malloc, calloc, realloc, posix_memalign, aligned_alloc,
/// memalign) made by the process so far. Zero where the counter is not linked in (non-glibc).
uint64_t loadables_allocation_count(void);

/// Bytes of heap in use, from glibc's `mallinfo2()`; -1 where not available.
int64_t loadables_heap_bytes_in_use(void);

#endif
