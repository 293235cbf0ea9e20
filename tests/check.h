/* check.h - the tiny unit-test harness shared by ref/ and runner/ tests.
 *
 * A test file defines `static void test_xxx(void)` functions and lists them in
 * main() with RUN(test_xxx); CHECK(cond) records a failure with file:line and
 * the condition; CHECK_EQ_I64 and CHECK_STREQ print both sides. main() ends
 * with `return check_summary();`, which prints "N passed, N failed" (a test
 * passes when none of its checks failed) and returns the exit status. */
#ifndef BCAST_CHECK_H
#define BCAST_CHECK_H

#include <stdio.h>
#include <string.h>
#include <stdint.h>

static int check_failures_in_test;
static int check_tests_passed;
static int check_tests_failed;

#define CHECK(cond) do { \
    if (!(cond)) { \
        check_failures_in_test++; \
        fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    } } while (0)

#define CHECK_EQ_I64(got, want) do { \
    long long check_g_ = (long long)(got), check_w_ = (long long)(want); \
    if (check_g_ != check_w_) { \
        check_failures_in_test++; \
        fprintf(stderr, "%s:%d: %s == %lld, expected %s == %lld\n", __FILE__, __LINE__, \
                #got, check_g_, #want, check_w_); \
    } } while (0)

#define CHECK_STREQ(got, want) do { \
    const char *check_g_ = (got), *check_w_ = (want); \
    if (check_g_ == NULL || strcmp(check_g_, check_w_) != 0) { \
        check_failures_in_test++; \
        fprintf(stderr, "%s:%d: %s is \"%s\", expected \"%s\"\n", __FILE__, __LINE__, \
                #got, check_g_ ? check_g_ : "(null)", check_w_); \
    } } while (0)

#define RUN(test) do { \
    check_failures_in_test = 0; \
    test(); \
    if (check_failures_in_test == 0) check_tests_passed++; \
    else { check_tests_failed++; fprintf(stderr, "FAIL %s\n", #test); } \
    } while (0)

static inline int check_summary(void)
{
    printf("%d passed, %d failed\n", check_tests_passed, check_tests_failed);
    return check_tests_failed == 0 ? 0 : 1;
}

#endif
