// Host peer of assets/examples/saxpy.jl: the same loop in C, for
// `prism run --device host` (scripts/bench builds it with clang-16 -O3 -march=native).
//
//   saxpy_host [N [THREADS]]   -> {"n": N, "threads": T, "time_ms": t, "check": y[0]}
//
// Like `prism run`, it fills x and y (ones) first, then times one pass of
// y = a*x + y over N Float32 with CLOCK_MONOTONIC. THREADS > 1 splits the
// range over pthreads (creation and join included in the time, as a launch
// includes its thread pool's work).
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void saxpy(float a, const float *x, float *y, long n) {
  for (long i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

struct part {
  float a;
  const float *x;
  float *y;
  long n;
};

static void *run_part(void *p) {
  struct part *P = p;
  saxpy(P->a, P->x, P->y, P->n);
  return NULL;
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1L << 24;
  int threads = argc > 2 ? atoi(argv[2]) : 1;
  if (n <= 0 || threads <= 0 || threads > 1024) {
    fprintf(stderr, "usage: saxpy_host [N [THREADS]]\n");
    return 2;
  }
  float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float));
  if (!x || !y) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  for (long i = 0; i < n; ++i)
    x[i] = y[i] = 1.0f;

  double t0 = now_ms();
  if (threads == 1) {
    saxpy(2.0f, x, y, n);
  } else {
    pthread_t tid[1024];
    struct part parts[1024];
    long chunk = (n + threads - 1) / threads;
    for (int t = 0; t < threads; ++t) {
      long lo = t * chunk, hi = lo + chunk < n ? lo + chunk : n;
      parts[t] = (struct part){2.0f, x + lo, y + lo, hi > lo ? hi - lo : 0};
      pthread_create(&tid[t], NULL, run_part, &parts[t]);
    }
    for (int t = 0; t < threads; ++t)
      pthread_join(tid[t], NULL);
  }
  double t1 = now_ms();

  printf("{\"n\": %ld, \"threads\": %d, \"time_ms\": %.6f, \"check\": %g}\n", n, threads,
         t1 - t0, y[0] + y[n - 1]);
  free(x);
  free(y);
  return 0;
}
