/* pin_cse(s): the consumer reads only the even rows of s, over a smaller
 * range: the duplicated domain is the image of its footprint, so only
 * those row sums are computed (a reduction over j for each).  Without a
 * hint on r, loomc pins it (one read per element). */
static void row_sum(const float *a, float *s) { *s += *a; }
static void scale(const float *s, float *r) { *r = 0.5f * *s; }
static void square(const float *r, float *q) { *q = *r * *r; }

void even_rows(int n, int m, float (*a)[m], float *s, float *r, float *q) {
#pragma loom pin_cse(s)
#pragma loom par_loop(row_sum) domain("[n, m] -> { [i, j] : 0 <= i < n and 0 <= j < m }") \
    args(read: a[i][j], inc: s[i])
#pragma loom par_loop(scale) domain("[n] -> { [i] : 0 <= 2i < n }") \
    args(read: s[2 * i], write: r[i])
#pragma loom par_loop(square) domain("[n] -> { [i] : 0 <= 2i < n }") \
    args(read: r[i], write: q[i])
}
