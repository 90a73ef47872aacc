// wake latency against how long the woken task's CPU has been idle: the parent (CPU 0) spins
// GAP µs, then writes a timestamp into a pipe the child (CPU 1) is blocked reading; the child
// records now - stamp and answers at once. CPU 1 is idle for about GAP µs before each wake.
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sched.h>
#include <sys/wait.h>
static long long now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1000000000LL+t.tv_nsec;}
static int cmp(const void*a,const void*b){long long x=*(long long*)a,y=*(long long*)b;return x<y?-1:x>y;}
static void pin(int c){cpu_set_t s;CPU_ZERO(&s);CPU_SET(c,&s);sched_setaffinity(0,sizeof s,&s);}
int main(int argc,char**argv){
  int n=atoi(argv[1]); long long gap=atoll(argv[2])*1000;
  int p1[2],p2[2]; pipe(p1); pipe(p2);
  pid_t pid=fork();
  if(pid==0){ pin(1); long long *d=malloc(sizeof(long long)*n);
    for(int i=0;i<n;i++){long long t; if(read(p1[0],&t,8)!=8)return 1; d[i]=now()-t; char c=1; write(p2[1],&c,1);}
    qsort(d,n,sizeof *d,cmp); printf("idle %5lld us: wake latency p10 %6lld p50 %6lld p90 %6lld ns\n",gap/1000,d[n/10],d[n/2],d[n*9/10]); return 0;}
  pin(0);
  for(int i=0;i<n;i++){ char c; long long t0=now(); while(now()-t0<gap); long long t=now(); write(p1[1],&t,8); read(p2[0],&c,1);}
  wait(0); return 0;}
