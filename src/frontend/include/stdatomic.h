/* yogar's <stdatomic.h>: C11 atomics as GCC's atomic builtins, which yogar models under
   sequential consistency (every memory order is accepted and means SC). It replaces GCC's
   header, whose macros use `__auto_type` and statement expressions the parser does not take;
   the meaning is the same. */
#ifndef _YOGAR_STDATOMIC_H
#define _YOGAR_STDATOMIC_H

typedef enum {
  memory_order_relaxed = __ATOMIC_RELAXED,
  memory_order_consume = __ATOMIC_CONSUME,
  memory_order_acquire = __ATOMIC_ACQUIRE,
  memory_order_release = __ATOMIC_RELEASE,
  memory_order_acq_rel = __ATOMIC_ACQ_REL,
  memory_order_seq_cst = __ATOMIC_SEQ_CST
} memory_order;

typedef _Atomic _Bool atomic_bool;
typedef _Atomic char atomic_char;
typedef _Atomic signed char atomic_schar;
typedef _Atomic unsigned char atomic_uchar;
typedef _Atomic short atomic_short;
typedef _Atomic unsigned short atomic_ushort;
typedef _Atomic int atomic_int;
typedef _Atomic unsigned int atomic_uint;
typedef _Atomic long atomic_long;
typedef _Atomic unsigned long atomic_ulong;
typedef _Atomic long long atomic_llong;
typedef _Atomic unsigned long long atomic_ullong;
typedef _Atomic __INTPTR_TYPE__ atomic_intptr_t;
typedef _Atomic __UINTPTR_TYPE__ atomic_uintptr_t;
typedef _Atomic __SIZE_TYPE__ atomic_size_t;
typedef _Atomic __PTRDIFF_TYPE__ atomic_ptrdiff_t;
typedef _Atomic __INTMAX_TYPE__ atomic_intmax_t;
typedef _Atomic __UINTMAX_TYPE__ atomic_uintmax_t;

#define ATOMIC_VAR_INIT(VALUE) (VALUE)
#define atomic_init(PTR, VAL) __atomic_store_n((PTR), (VAL), __ATOMIC_RELAXED)
#define kill_dependency(Y) (Y)
/* GCC's answer for the scalar types on the supported targets. */
#define atomic_is_lock_free(PTR) 1

#define atomic_thread_fence(MO) __atomic_thread_fence(MO)
#define atomic_signal_fence(MO) __atomic_signal_fence(MO)

#define atomic_store_explicit(PTR, VAL, MO) __atomic_store_n((PTR), (VAL), (MO))
#define atomic_store(PTR, VAL) __atomic_store_n((PTR), (VAL), __ATOMIC_SEQ_CST)
#define atomic_load_explicit(PTR, MO) __atomic_load_n((PTR), (MO))
#define atomic_load(PTR) __atomic_load_n((PTR), __ATOMIC_SEQ_CST)
#define atomic_exchange_explicit(PTR, VAL, MO) __atomic_exchange_n((PTR), (VAL), (MO))
#define atomic_exchange(PTR, VAL) __atomic_exchange_n((PTR), (VAL), __ATOMIC_SEQ_CST)
#define atomic_compare_exchange_strong_explicit(PTR, EXP, DES, SUC, FAIL) \
  __atomic_compare_exchange_n((PTR), (EXP), (DES), 0, (SUC), (FAIL))
#define atomic_compare_exchange_strong(PTR, EXP, DES) \
  __atomic_compare_exchange_n((PTR), (EXP), (DES), 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)
#define atomic_compare_exchange_weak_explicit(PTR, EXP, DES, SUC, FAIL) \
  __atomic_compare_exchange_n((PTR), (EXP), (DES), 1, (SUC), (FAIL))
#define atomic_compare_exchange_weak(PTR, EXP, DES) \
  __atomic_compare_exchange_n((PTR), (EXP), (DES), 1, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)

#define atomic_fetch_add(PTR, VAL) __atomic_fetch_add((PTR), (VAL), __ATOMIC_SEQ_CST)
#define atomic_fetch_add_explicit(PTR, VAL, MO) __atomic_fetch_add((PTR), (VAL), (MO))
#define atomic_fetch_sub(PTR, VAL) __atomic_fetch_sub((PTR), (VAL), __ATOMIC_SEQ_CST)
#define atomic_fetch_sub_explicit(PTR, VAL, MO) __atomic_fetch_sub((PTR), (VAL), (MO))
#define atomic_fetch_or(PTR, VAL) __atomic_fetch_or((PTR), (VAL), __ATOMIC_SEQ_CST)
#define atomic_fetch_or_explicit(PTR, VAL, MO) __atomic_fetch_or((PTR), (VAL), (MO))
#define atomic_fetch_xor(PTR, VAL) __atomic_fetch_xor((PTR), (VAL), __ATOMIC_SEQ_CST)
#define atomic_fetch_xor_explicit(PTR, VAL, MO) __atomic_fetch_xor((PTR), (VAL), (MO))
#define atomic_fetch_and(PTR, VAL) __atomic_fetch_and((PTR), (VAL), __ATOMIC_SEQ_CST)
#define atomic_fetch_and_explicit(PTR, VAL, MO) __atomic_fetch_and((PTR), (VAL), (MO))

typedef _Atomic _Bool atomic_flag;
#define ATOMIC_FLAG_INIT 0
#define atomic_flag_test_and_set(PTR) __atomic_test_and_set((PTR), __ATOMIC_SEQ_CST)
#define atomic_flag_test_and_set_explicit(PTR, MO) __atomic_test_and_set((PTR), (MO))
#define atomic_flag_clear(PTR) __atomic_clear((PTR), __ATOMIC_SEQ_CST)
#define atomic_flag_clear_explicit(PTR, MO) __atomic_clear((PTR), (MO))

#endif
