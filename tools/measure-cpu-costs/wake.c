// wake latency: the parent writes a timestamp into a pipe the child is blocked reading;
// the child records now - stamp. Same CPU or the other CPU (taskset outside).
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sched.h>
#include <sys/wait.h>
static long long now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1000000000LL+t.tv_nsec;}
static int cmp(const void*a,const void*b){long long x=*(long long*)a,y=*(long long*)b;return x<y?-1:x>y;}
int main(int argc,char**argv){
  int n=argc>1?atoi(argv[1]):20000; int cpuA=argc>2?atoi(argv[2]):0, cpuB=argc>3?atoi(argv[3]):1;
  int p1[2],p2[2]; pipe(p1); pipe(p2);
  pid_t pid=fork();
  if(pid==0){ cpu_set_t s;CPU_ZERO(&s);CPU_SET(cpuB,&s);sched_setaffinity(0,sizeof s,&s);
    long long *d=malloc(sizeof(long long)*n);
    for(int i=0;i<n;i++){long long t; if(read(p1[0],&t,8)!=8)return 1; d[i]=now()-t; char c=1; write(p2[1],&c,1);}
    qsort(d,n,sizeof *d,cmp); printf("wake latency ns: p10 %lld p50 %lld p90 %lld (n %d, writer cpu %d, reader cpu %d)\n",d[n/10],d[n/2],d[n*9/10],n,cpuA,cpuB); return 0;}
  cpu_set_t s;CPU_ZERO(&s);CPU_SET(cpuA,&s);sched_setaffinity(0,sizeof s,&s);
  for(int i=0;i<n;i++){ struct timespec ts={0,200000}; nanosleep(&ts,0); long long t=now(); write(p1[1],&t,8); char c; read(p2[0],&c,1);}
  wait(0); return 0;}
