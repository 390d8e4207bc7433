# Scale tests: label `scale`, run by `make test-scale` (not by `make test`),
# at 16, 32 and 64 ranks, oversubscribed, on small problems; each checks its
# result against a serial reference or an exact solution, and prints its
# ranks' peak resident memory (scale_run.sh, GNU time). s_setup also
# reports each rank's peak memory over the partitioners' setup alone at a
# fixed global size (docs/design.md quotes it). Included from the top level, after
# the tests, apps and Python directories whose programs it runs.
set(MN_SCALE_RANKS 16 32 64 CACHE STRING "Rank counts the scale tests run at")
set(MN_SCALE_TIMEOUT 900)
find_program(MN_GNU_TIME time PATHS /usr/bin NO_DEFAULT_PATH)
function(mn_scale_test name)
  cmake_parse_arguments(T "" "" "ENV" ${ARGN})
  foreach(np ${MN_SCALE_RANKS})
    # each rank under GNU time: its peak resident memory, summarised
    add_test(NAME ${name}_np${np}
      COMMAND ${MN_TIMEOUT} -k 5 ${MN_SCALE_TIMEOUT} bash ${CMAKE_CURRENT_SOURCE_DIR}/tests/scale_run.sh ${MN_GNU_TIME}
              ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np} ${MPIEXEC_PREFLAGS} -- ${T_UNPARSED_ARGUMENTS})
    # the ranks share every core: one such test at a time
    set_tests_properties(${name}_np${np} PROPERTIES TIMEOUT ${MN_SCALE_TIMEOUT} RUN_SERIAL TRUE LABELS scale
      ENVIRONMENT "${MN_TEST_ENV};OMP_NUM_THREADS=1;OPENBLAS_NUM_THREADS=1;${T_ENV}")
  endforeach()
endfunction()

# setup: METIS and PT-Scotch on the shuffled 512 x 512 Laplacian, SpMV and
# CG through each renumbering, per-rank setup memory
mn_scale_test(scale_setup $<TARGET_FILE:s_setup> 512)
# halo exchange, redistribution, partitions against serial recounts
mn_scale_test(scale_halo $<TARGET_FILE:t_halo>)
mn_scale_test(scale_redist $<TARGET_FILE:t_redist>)
mn_scale_test(scale_partition $<TARGET_FILE:t_partition>)
# a stencil app against its serial loop, and the Poisson solver's order
if(TARGET heat)
  mn_scale_test(scale_heat $<TARGET_FILE:heat> --n 101 --iterations 25 --check)
endif()
if(TARGET poisson)
  mn_scale_test(scale_poisson $<TARGET_FILE:poisson> --dim 2 --n 63)
endif()
# maniple.numpy: the seeds' scripts (the stencil idiom among them) against
# NumPy, and maniple.sparse products and solves through both partitioners;
# whole-array reductions take MPI's tree from 16 ranks up (the default is 64)
if(TARGET _core)
  mn_scale_test(scale_python ${Python_EXECUTABLE} -m pytest -q --color=no -p no:cacheprovider
    -o faulthandler_timeout=600 -o faulthandler_exit_on_timeout=true
    ${CMAKE_SOURCE_DIR}/python/tests/test_seed_scripts.py
    ${CMAKE_SOURCE_DIR}/python/tests/test_sparse_ops.py::test_products_of_partitioned_matrices_are_in_the_users_numbering
    ${CMAKE_SOURCE_DIR}/python/tests/test_sparse_linalg.py::test_renumbered_matrix
    ENV "PYTHONPATH=${CMAKE_BINARY_DIR}/python;PYTHONDONTWRITEBYTECODE=1;MANIPLE_ACC_GATHER_MAX=16")
endif()
