// valgrind 3.19 aborts on a Swift program whose async `main` suspends: dispatch hands
// sigsuspend() a signal mask in read-only memory, which valgrind's wrapper writes to. This
// preloaded shim passes a writable copy instead. It changes no instruction count that the
// benchmarks measure.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>

int sigsuspend(const sigset_t *mask) {
  static int (*real_sigsuspend)(const sigset_t *);
  if (real_sigsuspend == 0) {
    real_sigsuspend = (int (*)(const sigset_t *))dlsym(RTLD_NEXT, "sigsuspend");
  }
  sigset_t copy = *mask;
  return real_sigsuspend(&copy);
}
