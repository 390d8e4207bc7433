"""Every rank runs the same tests in the same order (SPMD)."""
import maniple

maniple.init()
