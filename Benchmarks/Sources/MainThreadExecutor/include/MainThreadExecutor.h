#ifndef MAIN_THREAD_EXECUTOR_H
#define MAIN_THREAD_EXECUTOR_H

/// Sends every job of the global concurrent executor to the main executor from now on, so
/// the whole process runs on the main thread. The runner calls it before a measured run:
/// whether a worker thread is still awake when a job is enqueued depends on timing, and
/// waking one costs a few hundred instructions, which made task-starting scenarios move by
/// up to 10 % between runs and with the machine's load. Returns 0 when the runtime's hook
/// was found and set, -1 otherwise.
int loadables_run_global_jobs_on_main_thread(void);

#endif
