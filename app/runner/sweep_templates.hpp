#pragma once
// The bash templates that --cluster-script fills in (app/runner/sweep.cpp), embedded into the binary
// at build time from assets/sweep/ (cmake/Embed.cmake), with @NAME@ markers for the sweep's values.

#include <string>

namespace lodestone::runner {

// assets/sweep/run_job.sh.in: the settings and the run_job function both scripts share.
const std::string& sweep_run_job_template();
// assets/sweep/slurm.sh.in: a SLURM array job that also runs with plain bash.
const std::string& sweep_slurm_template();
// assets/sweep/parallel.sh.in: GNU parallel runs the jobs.
const std::string& sweep_parallel_template();

}  // namespace lodestone::runner
