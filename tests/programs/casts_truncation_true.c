// expect: TRUE unwind: 2
// Integer conversions (two's complement; conversion to a narrower signed type keeps the low
// bits, as gcc defines it): (unsigned char)300 == 44, (signed char)200 == -56,
// (short)70000 == 4464, (unsigned short)-1 == 65535; sign extension: (int)(signed char)0xff
// == -1, (unsigned int)(signed char)-1 == 0xffffffff; zero extension: (int)(unsigned char)
// 0xff == 255. The thread does the conversions, main checks after the join.
#include <pthread.h>
#include <assert.h>

int big = 300, mid = 200, large = 70000, minus1 = -1, ff = 0xff;
unsigned char r_uc;
signed char r_sc;
short r_s;
unsigned short r_us;
int r_sext, r_zext;
unsigned int r_u;

void *conv(void *arg) {
  r_uc = (unsigned char)big;
  r_sc = (signed char)mid;
  r_s = (short)large;
  r_us = (unsigned short)minus1;
  r_sext = (int)(signed char)ff;
  r_u = (unsigned int)(signed char)minus1;
  r_zext = (int)(unsigned char)ff;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, conv, 0);
  pthread_join(t, 0);
  assert(r_uc == 44);
  assert(r_sc == -56);
  assert(r_s == 4464);
  assert(r_us == 65535);
  assert(r_sext == -1);
  assert(r_u == 0xffffffffu);
  assert(r_zext == 255);
  return 0;
}
