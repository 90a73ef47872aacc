// hrtimer_cost SECS PERIOD_US: cost of an hrtimer interrupt on a busy CPU. Spins for SECS seconds counting loop
// iterations; with PERIOD_US > 0 a periodic timerfd (an hrtimer, re-armed at each expiry)
// fires every PERIOD_US on this CPU. Prints iterations per second and timer expiries.
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>
#include <sys/timerfd.h>
#include <unistd.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(int c,char**v){double secs=atof(v[1]);long per=atol(v[2]);int fd=-1;
 if(per>0){fd=timerfd_create(CLOCK_MONOTONIC,TFD_NONBLOCK);struct itimerspec it={{0,per*1000},{0,per*1000}};timerfd_settime(fd,0,&it,0);}
 volatile uint64_t n=0;double t0=now(),t;uint64_t chk=0;
 do{for(int i=0;i<10000;i++)n++;t=now();}while(t-t0<secs);
 uint64_t exp=0;if(fd>=0){if(read(fd,&exp,8)!=8)exp=0;}
 printf("period_us %ld iters_per_s %.0f expiries %lu elapsed %.3f\n",per,n/(t-t0),exp,t-t0);return 0;}
