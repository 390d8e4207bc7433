/* Partitions of a randomly renumbered 2-d mesh against serial recounts:
 * the permutations are inverse, MN_PART_EQUAL is the identity, METIS and
 * PT-Scotch cut the ghost volume at least 5x at 4 ranks (PT-Scotch within
 * 20% of METIS), MN_PART_GRAPH picks between them by size, the quality figures equal a
 * serial count from the gathered permutation, vectors move there and back
 * exactly (views, other layouts and dtypes, in place). Also asymmetric
 * input, isolated vertices, weights, n below the rank count, n = 0, and bad
 * input rejected on every rank. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "mn_test.h"

static uint64_t lcg(uint64_t *s) { *s = *s * 6364136223846793005ULL + 1442695040888963407ULL; return *s >> 33; }

/* A graph held whole on every rank: symmetric rows without repeats. */
typedef struct { int64_t n, *rp, *adj; } graph;

static void graph_free(graph *g) { free(g->rp); free(g->adj); }

/* nx x ny 5-point mesh plus `extra` isolated vertices, numbered by a
 * random permutation (the same on every rank). */
static graph mesh(int64_t nx, int64_t ny, int64_t extra, uint64_t seed) {
  int64_t n = nx * ny + extra, *lab = malloc(sizeof(int64_t) * (size_t)(n + 1));
  int64_t *at = malloc(sizeof(int64_t) * (size_t)(n + 1));
  for (int64_t i = 0; i < n; i++) lab[i] = i;
  for (int64_t i = n - 1; i > 0; i--) {
    int64_t j = (int64_t)(lcg(&seed) % (uint64_t)(i + 1)), t = lab[i];
    lab[i] = lab[j]; lab[j] = t;
  }
  for (int64_t i = 0; i < n; i++) at[lab[i]] = i;
  graph g = {n, calloc((size_t)n + 1, sizeof(int64_t)), malloc(sizeof(int64_t) * (size_t)(4 * n + 1))};
  for (int64_t L = 0; L < n; L++) {
    int64_t p = at[L], e = g.rp[L];
    if (p < nx * ny) {
      int64_t i = p / ny, j = p % ny;
      if (i > 0) g.adj[e++] = lab[p - ny];
      if (i < nx - 1) g.adj[e++] = lab[p + ny];
      if (j > 0) g.adj[e++] = lab[p - 1];
      if (j < ny - 1) g.adj[e++] = lab[p + 1];
    }
    g.rp[L + 1] = e;
  }
  free(lab); free(at);
  return g;
}

/* A path 0 - 1 - ... - (n-1). */
static graph path(int64_t n) {
  graph g = {n, calloc((size_t)n + 1, sizeof(int64_t)), malloc(sizeof(int64_t) * (size_t)(2 * n + 1))};
  for (int64_t i = 0; i < n; i++) {
    int64_t e = g.rp[i];
    if (i > 0) g.adj[e++] = i - 1;
    if (i < n - 1) g.adj[e++] = i + 1;
    g.rp[i + 1] = e;
  }
  return g;
}

/* This rank's rows, as the library takes them; half: only the edges to
 * higher vertices, each twice, plus a self loop (symmetrised inside). */
static void rows(mn_ctx *ctx, const graph *g, int half, int64_t **rp, int64_t **adj, int64_t *nl) {
  int P = mn_ctx_size(ctx), r = mn_ctx_rank(ctx);
  int64_t s = mn_split_start(g->n, P, r), m = 0;
  *nl = mn_split_size(g->n, P, r);
  *rp = malloc(sizeof(int64_t) * (size_t)(*nl + 1));
  *adj = malloc(sizeof(int64_t) * (size_t)(3 * (g->rp[s + *nl] - g->rp[s]) + *nl + 1));
  (*rp)[0] = 0;
  for (int64_t k = 0; k < *nl; k++) {
    for (int64_t e = g->rp[s + k]; e < g->rp[s + k + 1]; e++) {
      if (!half) { (*adj)[m++] = g->adj[e]; continue; }
      if (g->adj[e] > s + k) { (*adj)[m++] = g->adj[e]; (*adj)[m++] = g->adj[e]; }
    }
    if (half) (*adj)[m++] = s + k;
    (*rp)[k + 1] = m;
  }
}

/* Every rank's nl entries of a distributed vector, on every rank. */
static int64_t *gather(mn_ctx *ctx, const int64_t *loc, int64_t n) {
  int P = mn_ctx_size(ctx), *c = malloc(sizeof(int) * (size_t)P), *d = malloc(sizeof(int) * (size_t)P);
  for (int q = 0; q < P; q++) { c[q] = (int)mn_split_size(n, P, q); d[q] = (int)mn_split_start(n, P, q); }
  int64_t *all = malloc(sizeof(int64_t) * (size_t)(n + 1));
  MPI_Allgatherv(loc, c[mn_ctx_rank(ctx)], MPI_INT64_T, all, c, d, MPI_INT64_T, mn_ctx_comm(ctx));
  free(c); free(d);
  return all;
}

/* Quality counted serially from the new index of every vertex. */
static mn_partition_quality serial_quality(const graph *g, const int64_t *nw, const int64_t *w, int P) {
  int64_t n = g->n, *own = malloc(sizeof(int64_t) * (size_t)(n + 1)), *seen = malloc(sizeof(int64_t) * (size_t)(n + 1));
  int64_t *gh = calloc((size_t)P, sizeof(int64_t)), *wt = calloc((size_t)P, sizeof(int64_t));
  mn_partition_quality q = {0, INT64_MAX, 0, 0, 1.0};
  for (int64_t i = 0; i < n; i++) { own[i] = mn_split_owner(n, P, nw[i]); seen[i] = -1; }
  for (int64_t u = 0; u < n; u++) {
    wt[own[u]] += w ? w[u] : 1;
    for (int64_t e = g->rp[u]; e < g->rp[u + 1]; e++) {
      int64_t v = g->adj[e];
      if (u < v && own[u] != own[v]) q.edge_cut++;
    }
  }
  for (int R = 0; R < P; R++)
    for (int64_t u = 0; u < n; u++)
      if (own[u] == R)
        for (int64_t e = g->rp[u]; e < g->rp[u + 1]; e++) {
          int64_t v = g->adj[e];
          if (own[v] != R && seen[v] != R) { seen[v] = R; gh[R]++; }
        }
  int64_t wmax = 0, wsum = 0;
  for (int R = 0; R < P; R++) {
    if (gh[R] < q.ghost_min) q.ghost_min = gh[R];
    if (gh[R] > q.ghost_max) q.ghost_max = gh[R];
    q.ghost_total += gh[R];
    if (wt[R] > wmax) wmax = wt[R];
    wsum += wt[R];
  }
  if (wsum) q.imbalance = (double)wmax / ((double)wsum / P);
  free(own); free(seen); free(gh); free(wt);
  return q;
}

static double fx(int64_t i) { return 0.5 * (double)i - 7.25; }
static double fodd(int64_t k) { return k % 2 ? -1.0 : (double)(3 * (k / 2) + 1); }

/* to_new puts x[i] at new(i); to_old brings it back; other layouts,
 * dtypes, views and in place. */
static void check_move(mn_ctx *ctx, const mn_partition *p, const int64_t *nw, int64_t n, const char *what) {
  mn_array *x = NULL, *y = NULL, *z = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &x));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &y));
  /* with a halo (where blocks are wide enough): a strided local part */
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, n >= mn_ctx_size(ctx), &z));
  mt_set(x, fx);
  T_OK(mn_partition_to_new(p, x, y));
  double *a = mt_all(y);
  for (int64_t i = 0; i < n; i++)
    if (a[nw[i]] != fx(i)) {
      T_CHECK(0, "%s: x_new[%lld] = %g, expected x[%lld] = %g", what, (long long)nw[i], a[nw[i]], (long long)i, fx(i));
      break;
    }
  T_OK(mn_partition_to_old(p, y, z));
  double *b = mt_all(z);
  for (int64_t i = 0; i < n; i++)
    if (b[i] != fx(i)) {
      T_CHECK(0, "%s: back in the old numbering x[%lld] = %g, expected %g", what, (long long)i, b[i], fx(i));
      break;
    }
  T_OK(mn_partition_to_new(p, z, z)); /* in place */
  double *c = mt_all(z);
  for (int64_t i = 0; i < n; i++)
    if (c[i] != a[i]) {
      T_CHECK(0, "%s: in place x_new[%lld] = %g, expected %g", what, (long long)i, c[i], a[i]);
      break;
    }
  free(a); free(b); free(c);
  if (n > 0) { /* int64 view x2[::2] -> float64 on rank 0 -> float32 view */
    int64_t n2 = 2 * n;
    mn_array *s2 = NULL, *sv = NULL, *r = NULL, *t2 = NULL, *tv = NULL;
    mn_layout *root = NULL;
    mn_index ev = mn_slice(0, MN_NONE, 2);
    T_OK(mn_array_create(ctx, MN_INT64, 1, &n2, 0, &s2));
    mt_set(s2, fodd);
    T_OK(mn_array_index(s2, 1, &ev, &sv));
    T_OK(mn_layout_create_root(ctx, 1, &n, mn_ctx_size(ctx) - 1, &root));
    T_OK(mn_array_create_on(root, MN_FLOAT64, 0, &r));
    T_OK(mn_partition_to_new(p, sv, r));
    double *ra = mt_all(r);
    for (int64_t i = 0; i < n; i++)
      if (ra[nw[i]] != (double)(3 * i + 1)) {
        T_CHECK(0, "%s: view to root: x_new[%lld] = %g, expected %lld", what, (long long)nw[i], ra[nw[i]],
                (long long)(3 * i + 1));
        break;
      }
    T_OK(mn_array_create(ctx, MN_FLOAT32, 1, &n2, 0, &t2));
    T_OK(mn_array_index(t2, 1, &ev, &tv));
    T_OK(mn_partition_to_old(p, r, tv));
    double *ta = mt_all(t2);
    for (int64_t k = 0; k < n2; k++)
      if (ta[k] != (k % 2 ? 0.0 : (double)(3 * (k / 2) + 1))) {
        T_CHECK(0, "%s: root to view: t[%lld] = %g", what, (long long)k, ta[k]);
        break;
      }
    free(ra); free(ta);
    mn_array_destroy(&sv); mn_array_destroy(&s2); mn_array_destroy(&r); mn_array_destroy(&tv); mn_array_destroy(&t2);
    mn_layout_destroy(&root);
    mn_array *bad = NULL;
    int64_t m = n + 1;
    T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &m, 0, &bad));
    int e = mn_partition_to_new(p, x, bad);
    T_CHECK(e == MN_ERR_SHAPE, "%s: moving into %lld elements gave %s, expected MN_ERR_SHAPE", what, (long long)m,
            mn_err_name(e));
    mn_array_destroy(&bad);
  }
  mn_array_destroy(&x); mn_array_destroy(&y); mn_array_destroy(&z);
}

/* Whether this build has the partitioner (tests/CMakeLists.txt says). */
static int built(mn_part_kind kind) {
  int metis = 0, scotch = 0;
#ifdef MT_HAVE_METIS
  metis = 1;
#endif
#ifdef MT_HAVE_PTSCOTCH
  scotch = 1;
#endif
  return kind == MN_PART_METIS ? metis : kind == MN_PART_PTSCOTCH ? scotch : kind == MN_PART_GRAPH ? metis || scotch : 1;
}

/* A partition of g, checked against the serial count; returns the new
 * index of every vertex (caller frees) or NULL when the kind is missing. */
static int64_t *check_part(mn_ctx *ctx, const graph *g, mn_part_kind kind, int half, const int64_t *w, const char *what,
                           mn_partition_quality *qout) {
  int P = mn_ctx_size(ctx), r = mn_ctx_rank(ctx);
  int64_t *rp, *adj, nl, n = g->n;
  rows(ctx, g, half, &rp, &adj, &nl);
  mn_partition *p = NULL;
  int e = mn_partition_create(ctx, kind, n, nl, rp, adj, w ? w + mn_split_start(n, P, r) : NULL, &p);
  free(rp); free(adj);
  if (!built(kind)) {
    const char *why = kind == MN_PART_METIS ? "without METIS" : "without PT-Scotch";
    T_CHECK(e == MN_ERR_NOTIMPL && strstr(mn_ctx_errmsg(ctx), why), "%s: %s got %s: %s", what, why, mn_err_name(e),
            mn_ctx_errmsg(ctx));
    return NULL;
  }
  T_CHECK(e == 0, "%s: mn_partition_create returned %s\n%s", what, mn_err_name(e), mn_ctx_errmsg(ctx));
  if (e) return NULL;
  int64_t *nw = gather(ctx, mn_partition_new_of_old(p), n), *od = gather(ctx, mn_partition_old_of_new(p), n);
  int ok = 1;
  for (int64_t i = 0; i < n && ok; i++) {
    ok = nw[i] >= 0 && nw[i] < n && od[nw[i]] == i;
    T_CHECK(ok, "%s: new_of_old[%lld] = %lld and old_of_new of that are not inverse", what, (long long)i,
            (long long)nw[i]);
  }
  for (int64_t i = 0; i < n && ok && kind == MN_PART_EQUAL; i++) {
    ok = nw[i] == i;
    T_CHECK(ok, "%s: MN_PART_EQUAL moved vertex %lld to %lld", what, (long long)i, (long long)nw[i]);
  }
  mn_partition_quality q, s = serial_quality(g, nw, w, P);
  T_OK(mn_partition_get_quality(p, &q));
  T_CHECK(q.edge_cut == s.edge_cut, "%s: edge cut %lld, serial recount %lld", what, (long long)q.edge_cut,
          (long long)s.edge_cut);
  T_CHECK(q.ghost_min == s.ghost_min && q.ghost_max == s.ghost_max && q.ghost_total == s.ghost_total,
          "%s: ghosts min/max/total %lld/%lld/%lld, serial %lld/%lld/%lld", what, (long long)q.ghost_min,
          (long long)q.ghost_max, (long long)q.ghost_total, (long long)s.ghost_min, (long long)s.ghost_max,
          (long long)s.ghost_total);
  T_CLOSE(q.imbalance, s.imbalance, 1e-12);
  check_move(ctx, p, nw, n, what);
  T_OK(mn_partition_destroy(&p));
  T_CHECK(p == NULL, "%s: destroy did not clear the handle", what);
  if (qout) *qout = q;
  free(od);
  return nw;
}

/* Bad input on one rank only is refused on every rank, with no hang. */
static void check_errors(mn_ctx *ctx, const graph *g) {
  int P = mn_ctx_size(ctx), r = mn_ctx_rank(ctx);
  int64_t *rp, *adj, nl, n = g->n;
  mn_partition *p = NULL;
  rows(ctx, g, 0, &rp, &adj, &nl);
  for (int kind = 0; kind <= MN_PART_GRAPH; kind++) {
    int64_t keep = adj[0];
    if (r == P - 1) adj[0] = n + 3;
    int e = mn_partition_create(ctx, (mn_part_kind)kind, n, nl, rp, adj, NULL, &p);
    adj[0] = keep;
    if (!built((mn_part_kind)kind)) continue;
    char want[64];
    snprintf(want, sizeof want, "= %lld", (long long)n + 3);
    T_CHECK(e == MN_ERR_INDEX && p == NULL && strstr(mn_ctx_errmsg(ctx), want),
            "kind %d, adj entry %lld on rank %d: got %s\n%s", kind, (long long)n + 3, P - 1, mn_err_name(e),
            mn_ctx_errmsg(ctx));
    e = mn_partition_create(ctx, (mn_part_kind)kind, n, nl + (r == 0), rp, adj, NULL, &p);
    T_CHECK(e == MN_ERR_ARG && p == NULL && strstr(mn_ctx_errmsg(ctx), "nlocal"),
            "kind %d, wrong nlocal on rank 0: got %s\n%s", kind, mn_err_name(e), mn_ctx_errmsg(ctx));
    int64_t *w = malloc(sizeof(int64_t) * (size_t)(nl + 1));
    for (int64_t k = 0; k < nl; k++) w[k] = (r == P - 1 && k == nl - 1) ? -2 : 1;
    e = mn_partition_create(ctx, (mn_part_kind)kind, n, nl, rp, adj, w, &p);
    T_CHECK(e == MN_ERR_ARG && p == NULL && strstr(mn_ctx_errmsg(ctx), "negative"), "kind %d, weight -2: got %s\n%s",
            kind, mn_err_name(e), mn_ctx_errmsg(ctx));
    free(w);
  }
  int e = mn_partition_create(ctx, (mn_part_kind)5, n, nl, rp, adj, NULL, &p);
  T_CHECK(e == MN_ERR_ARG && p == NULL, "kind 5: got %s", mn_err_name(e));
  e = mn_partition_create(ctx, MN_PART_EQUAL, -1, 0, rp, adj, NULL, &p);
  T_CHECK(e == MN_ERR_ARG && p == NULL, "n = -1: got %s", mn_err_name(e));
  free(rp); free(adj);
}

/* The checks of one graph partitioner on the shuffled mesh g; qm: its
 * quality there. */
static void check_kind(mn_ctx *ctx, const graph *g, mn_part_kind kind, const char *name, mn_partition_quality *qm) {
  int P = mn_ctx_size(ctx);
  char what[96];
  mn_partition_quality qe;
  int64_t *eq = check_part(ctx, g, MN_PART_EQUAL, 0, NULL, "equal, shuffled mesh", &qe);
  snprintf(what, sizeof what, "%s, shuffled mesh", name);
  int64_t *me = check_part(ctx, g, kind, 0, NULL, what, qm);
  if (me) {
    T_CHECK(qm->imbalance <= 1.1, "%s imbalance %g above 1.1", name, qm->imbalance);
    T_CHECK(P == 1 || qm->ghost_total < qe.ghost_total, "%s ghosts %lld not below equal's %lld", name,
            (long long)qm->ghost_total, (long long)qe.ghost_total);
    T_CHECK(P != 4 || 5 * qm->ghost_total <= qe.ghost_total, "4 ranks: %s ghosts %lld, equal %lld: less than 5x fewer",
            name, (long long)qm->ghost_total, (long long)qe.ghost_total);
    /* one-way edges, repeats and self loops symmetrise to the same graph */
    snprintf(what, sizeof what, "%s, half edges with repeats and loops", name);
    int64_t *h = check_part(ctx, g, kind, 1, NULL, what, NULL);
    for (int64_t i = 0; h && i < g->n; i++)
      if (h[i] != me[i]) {
        T_CHECK(0, "%s, symmetrised input: vertex %lld goes to %lld, not %lld", name, (long long)i, (long long)h[i],
                (long long)me[i]);
        break;
      }
    free(h);
    /* the same graph, the same parts: PT-Scotch's seed is fixed */
    snprintf(what, sizeof what, "%s, again", name);
    h = check_part(ctx, g, kind, 0, NULL, what, NULL);
    for (int64_t i = 0; h && i < g->n; i++)
      if (h[i] != me[i]) {
        T_CHECK(0, "%s, run twice: vertex %lld goes to %lld, then %lld", name, (long long)i, (long long)me[i],
                (long long)h[i]);
        break;
      }
    free(h);
  }
  free(eq); free(me);
  int64_t *w = malloc(sizeof(int64_t) * (size_t)g->n);
  for (int64_t i = 0; i < g->n; i++) w[i] = 1 + (i * 7) % 5;
  snprintf(what, sizeof what, "%s, weighted", name);
  free(check_part(ctx, g, kind, 0, w, what, NULL));
  memset(w, 0, sizeof(int64_t) * (size_t)g->n);
  snprintf(what, sizeof what, "%s, zero weights", name);
  free(check_part(ctx, g, kind, 0, w, what, NULL));
  free(w);
  graph iso = mesh(12, 10, 30, 777); /* 30 isolated vertices */
  snprintf(what, sizeof what, "%s, isolated vertices", name);
  free(check_part(ctx, &iso, kind, 0, NULL, what, NULL));
  graph_free(&iso);
  for (int64_t n = 0; n <= 5; n++) { /* n below, at and above the rank count */
    graph pg = path(n);
    snprintf(what, sizeof what, "%s, path of %lld", name, (long long)n);
    free(check_part(ctx, &pg, kind, 0, NULL, what, NULL));
    graph_free(&pg);
  }
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  int P = mn_ctx_size(ctx);
  graph g = mesh(40, 40, 0, 12345);
  free(check_part(ctx, &g, MN_PART_EQUAL, 1, NULL, "equal, half edges", NULL));
  int64_t *w = malloc(sizeof(int64_t) * (size_t)g.n);
  for (int64_t i = 0; i < g.n; i++) w[i] = 1 + (i * 7) % 5;
  free(check_part(ctx, &g, MN_PART_EQUAL, 0, w, "equal, weighted", NULL));
  free(w);
  mn_partition_quality qm = {0}, qs = {0}, qg = {0};
  check_kind(ctx, &g, MN_PART_METIS, "METIS", &qm);
  check_kind(ctx, &g, MN_PART_PTSCOTCH, "PT-Scotch", &qs);
  check_kind(ctx, &g, MN_PART_GRAPH, "MN_PART_GRAPH", &qg);
  check_errors(ctx, &g);
  graph_free(&g);
  graph iso = mesh(12, 10, 30, 777);
  free(check_part(ctx, &iso, MN_PART_EQUAL, 0, NULL, "equal, isolated vertices", NULL));
  graph_free(&iso);
  for (int64_t n = 0; n <= 5; n++) {
    graph pg = path(n);
    char what[64];
    snprintf(what, sizeof what, "equal, path of %lld", (long long)n);
    free(check_part(ctx, &pg, MN_PART_EQUAL, 0, NULL, what, NULL));
    graph_free(&pg);
  }
  /* PT-Scotch's ghost volume within 20% of METIS's (the bar) on a
   * larger shuffled mesh; MN_PART_GRAPH picks METIS at this size, and
   * PT-Scotch when MANIPLE_PART_SERIAL_MAX is below it */
  if (built(MN_PART_METIS) && built(MN_PART_PTSCOTCH)) {
    graph big = mesh(120, 100, 0, 4242);
    mn_partition_quality bm, bs, bg;
    int64_t *a = check_part(ctx, &big, MN_PART_METIS, 0, NULL, "METIS, 120x100", &bm);
    int64_t *b = check_part(ctx, &big, MN_PART_PTSCOTCH, 0, NULL, "PT-Scotch, 120x100", &bs);
    int64_t *c = check_part(ctx, &big, MN_PART_GRAPH, 0, NULL, "MN_PART_GRAPH, 120x100", &bg);
    if (mn_ctx_rank(ctx) == 0)
      printf("120x100 shuffled mesh, %d ranks: ghosts METIS %lld, PT-Scotch %lld; imbalance %.3f, %.3f\n", P,
             (long long)bm.ghost_total, (long long)bs.ghost_total, bm.imbalance, bs.imbalance);
    T_CHECK(10 * bs.ghost_total <= 12 * bm.ghost_total, "%d ranks: PT-Scotch ghosts %lld, over 1.2x METIS's %lld", P,
            (long long)bs.ghost_total, (long long)bm.ghost_total);
    for (int64_t i = 0; a && c && i < big.n; i++)
      if (a[i] != c[i]) {
        T_CHECK(0, "MN_PART_GRAPH at 12000 vertices: vertex %lld goes to %lld, METIS's %lld", (long long)i,
                (long long)c[i], (long long)a[i]);
        break;
      }
    free(a); free(c);
    setenv("MANIPLE_PART_SERIAL_MAX", "1000", 1);
    mn_ctx *c2 = NULL;
    T_OK(mn_ctx_create(mn_ctx_comm(ctx), MN_BACKEND_DEFAULT, &c2));
    c = check_part(c2, &big, MN_PART_GRAPH, 0, NULL, "MN_PART_GRAPH above MANIPLE_PART_SERIAL_MAX", NULL);
    for (int64_t i = 0; b && c && i < big.n && P > 1; i++)
      if (b[i] != c[i]) {
        T_CHECK(0, "MN_PART_GRAPH above MANIPLE_PART_SERIAL_MAX: vertex %lld goes to %lld, PT-Scotch's %lld",
                (long long)i, (long long)c[i], (long long)b[i]);
        break;
      }
    free(b); free(c);
    mn_ctx_destroy(&c2);
    unsetenv("MANIPLE_PART_SERIAL_MAX");
    graph_free(&big);
  }
  return mt_finish(&ctx);
}
