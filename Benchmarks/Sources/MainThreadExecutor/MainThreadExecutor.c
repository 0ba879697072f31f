#include "MainThreadExecutor.h"

#include <stddef.h>

#if defined(__linux__) && defined(__x86_64__)
#define SWIFTCALL __attribute__((swiftcall))

typedef struct Job Job;
typedef SWIFTCALL void (*EnqueueGlobal)(Job *job);
typedef SWIFTCALL void (*EnqueueGlobalHook)(Job *job, EnqueueGlobal original);

// Both are exported by libswift_Concurrency (see swift/Runtime/Concurrency.h and
// swift/ExecutorImpl.h): the hook the runtime calls instead of enqueueing a job on the global
// executor, and the function that enqueues a job on the main executor.
extern EnqueueGlobalHook swift_task_enqueueGlobal_hook __attribute__((weak));
extern SWIFTCALL void swift_task_enqueueMainExecutor(Job *job) __attribute__((weak));

static SWIFTCALL void enqueueOnMain(Job *job, EnqueueGlobal original) {
  (void)original;
  swift_task_enqueueMainExecutor(job);
}

int loadables_run_global_jobs_on_main_thread(void) {
  if (&swift_task_enqueueGlobal_hook == NULL || swift_task_enqueueMainExecutor == NULL) return -1;
  swift_task_enqueueGlobal_hook = enqueueOnMain;
  return 0;
}
#else
int loadables_run_global_jobs_on_main_thread(void) { return -1; }
#endif
