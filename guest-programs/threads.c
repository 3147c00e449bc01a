/* Guest threads: 4 workers sum ranges of different sizes (work), workers
 * increment a shared counter under a mutex and wait on a condition variable
 * (contend), two threads lock two mutexes in opposite order after a barrier
 * (deadlock: never ends natively). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORKERS 4

struct range {
    long from, to;
    unsigned long sum;
};

__attribute__((noinline)) static unsigned long sum_range(long from, long to)
{
    unsigned long s = 0;
    for (long i = from; i < to; i++)
        s += (unsigned long)i * (unsigned long)i % 7919;
    return s;
}

static void *worker(void *p)
{
    struct range *r = p;
    r->sum = sum_range(r->from, r->to);
    return NULL;
}

static int work(void)
{
    pthread_t t[WORKERS];
    struct range r[WORKERS];
    for (int k = 0; k < WORKERS; k++) {
        r[k].from = 0;
        r[k].to = 100000L * (k + 1);
        if (pthread_create(&t[k], NULL, worker, &r[k]) != 0)
            return 1;
    }
    for (int k = 0; k < WORKERS; k++)
        pthread_join(t[k], NULL);
    for (int k = 0; k < WORKERS; k++)
        printf("worker %d: sum of [%ld, %ld) = %lu\n", k, r[k].from, r[k].to, r[k].sum);
    return 0;
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER;
static long counter;
static int finished;

static void *incrementer(void *p)
{
    long n = (long)p;
    for (long i = 0; i < n; i++) {
        pthread_mutex_lock(&lock);
        counter++;
        pthread_mutex_unlock(&lock);
        if (i % 1000 == 0)
            sched_yield();
    }
    pthread_mutex_lock(&lock);
    finished++;
    pthread_cond_signal(&done_cond);
    pthread_mutex_unlock(&lock);
    return NULL;
}

static int contend(void)
{
    pthread_t t[WORKERS];
    for (int k = 0; k < WORKERS; k++)
        pthread_create(&t[k], NULL, incrementer, (void *)(20000L + 5000L * k));
    pthread_mutex_lock(&lock);
    while (finished < WORKERS)
        pthread_cond_wait(&done_cond, &lock);
    pthread_mutex_unlock(&lock);
    for (int k = 0; k < WORKERS; k++)
        pthread_join(t[k], NULL);
    printf("counter = %ld\n", counter);
    return 0;
}

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t barrier;

static void *lock_ba(void *p)
{
    (void)p;
    pthread_mutex_lock(&b);
    pthread_barrier_wait(&barrier);
    pthread_mutex_lock(&a);
    return NULL;
}

static int deadlock(void)
{
    pthread_t t;
    pthread_barrier_init(&barrier, NULL, 2);
    pthread_create(&t, NULL, lock_ba, NULL);
    pthread_mutex_lock(&a);
    pthread_barrier_wait(&barrier);
    pthread_mutex_lock(&b);
    pthread_join(t, NULL);
    puts("unreachable");
    return 0;
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "work";
    if (!strcmp(what, "work"))
        return work();
    if (!strcmp(what, "contend"))
        return contend();
    if (!strcmp(what, "deadlock"))
        return deadlock();
    fprintf(stderr, "usage: threads work|contend|deadlock\n");
    return 2;
}
