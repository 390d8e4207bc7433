"""maniple's benchmark suite: `python -m maniple.bench` (or `make bench`).

Every benchmark at 1 and 2 ranks (and oversubscribed 4 and 8, labelled as a
measure of communication overhead, not of speed), beside its peers and the
STREAM triad measured in the same run; JSON lines, a CSV and PNG plots.
`python -m maniple.bench.model` is the performance model (docs/scaling.md)."""
