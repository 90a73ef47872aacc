// wake_cost N GAP_US MODE: a writer on CPU 0 writes 1 byte to a pipe N times, GAP_US apart (spinning);
// a reader on CPU 1 reads each byte: MODE 0 blocking read (each write wakes it), MODE 1
// non-blocking busy poll (no wake-up needed). Prints the writer's system time per write.
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <unistd.h>
#include <fcntl.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/wait.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static void pin(int c){cpu_set_t s;CPU_ZERO(&s);CPU_SET(c,&s);sched_setaffinity(0,sizeof s,&s);}
int main(int ac,char**av){long n=atol(av[1]);double gap=atof(av[2])*1e-6;int mode=atoi(av[3]);int p[2];pipe(p);
 pid_t r=fork();if(r==0){pin(1);close(p[1]);if(mode)fcntl(p[0],F_SETFL,O_NONBLOCK);char b;long got=0;while(got<n){ssize_t k=read(p[0],&b,1);if(k==1)got++;else if(k==0)break;}_exit(0);}
 pin(0);close(p[0]);usleep(100000);struct rusage a,b;getrusage(RUSAGE_SELF,&a);
 for(long i=0;i<n;i++){double t=now()+gap;while(now()<t);if(write(p[1],"x",1)!=1)return 1;}
 getrusage(RUSAGE_SELF,&b);double sys=(b.ru_stime.tv_sec-a.ru_stime.tv_sec)+(b.ru_stime.tv_usec-a.ru_stime.tv_usec)*1e-6+(b.ru_utime.tv_sec-a.ru_utime.tv_sec)+(b.ru_utime.tv_usec-a.ru_utime.tv_usec)*1e-6-n*gap;
 waitpid(r,0,0);printf("gap_us %.0f mode %s sys_per_write_us %.3f\n",gap*1e6,mode?"poll":"block",sys/n*1e6);return 0;}
