/* The peer of bench_cg: PETSc's CG with a Jacobi preconditioner on the 2-d
 * 5-point Poisson matrix of a G x G grid, exactly `its` iterations
 * (-ksp_type cg -pc_type jacobi -ksp_max_it its -ksp_convergence_test skip
 * -ksp_norm_type none), timed around KSPSolve (the slowest rank), the
 * median of reps solves. Prints one JSON line.
 *
 *   mpiexec -n P bench_cg_petsc [G] [its] [reps] */
#include <petscksp.h>
#include <stdio.h>
#include <stdlib.h>

static int cmpd(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscInt G = argc > 1 ? atoi(argv[1]) : 2000, its = argc > 2 ? atoi(argv[2]) : 200;
  int reps = argc > 3 ? atoi(argv[3]) : 3;
  PetscInt n = G * G, lo, hi;
  PetscMPIInt size, rank;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  Mat A;
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 5, NULL, 2, NULL, &A));
  PetscCall(MatGetOwnershipRange(A, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) {
    PetscInt a = i / G, b = i % G, c[5], k = 0;
    PetscScalar v[5];
    if (a > 0) { c[k] = i - G; v[k++] = -1; }
    if (b > 0) { c[k] = i - 1; v[k++] = -1; }
    c[k] = i; v[k++] = 4;
    if (b < G - 1) { c[k] = i + 1; v[k++] = -1; }
    if (a < G - 1) { c[k] = i + G; v[k++] = -1; }
    PetscCall(MatSetValues(A, 1, &i, k, c, v, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  Vec x, b;
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(b, 1.0));
  KSP ksp;
  PC pc;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(ksp, 0.0, 0.0, PETSC_DEFAULT, its));
  PetscCall(KSPSetConvergenceTest(ksp, KSPConvergedSkip, NULL, NULL));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_NONE));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSetUp(ksp));
  double *t = malloc(sizeof(double) * (size_t)(reps + 1));
  PetscInt done = 0;
  for (int r = 0; r <= reps; r++) { /* the first solve warms up */
    PetscCall(VecSet(x, 0.0));
    PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
    double t0 = MPI_Wtime();
    PetscCall(KSPSolve(ksp, b, x));
    double dt = MPI_Wtime() - t0, mx;
    PetscCallMPI(MPI_Allreduce(&dt, &mx, 1, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD));
    if (r) t[r - 1] = mx;
    PetscCall(KSPGetIterationNumber(ksp, &done));
  }
  qsort(t, (size_t)reps, sizeof(double), cmpd);
  double med = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
  if (rank == 0)
    printf("{\"bench\": \"cg_jacobi_poisson\", \"impl\": \"petsc\", \"ranks\": %d, \"G\": %d, \"iterations\": %d, "
           "\"median_s\": %.6g, \"min_s\": %.6g, \"max_s\": %.6g, \"ms_per_iteration\": %.6g, \"times_s\": [",
           size, (int)G, (int)done, med, t[0], t[reps - 1], med / (double)done * 1e3);
  for (int r = 0; rank == 0 && r < reps; r++) printf("%s%.6g", r ? ", " : "", t[r]);
  if (rank == 0) printf("]}\n");
  free(t);
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
