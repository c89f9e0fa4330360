#include "conformance/gate/run_repro.hpp"

#include "conformance/gate/client_paths.hpp"
#include "conformance/gate/fixture_upload.hpp"
#include "conformance/gate/reader_process.hpp"
#include "conformance/gate/repro_judge.hpp"

#include <sstream>

namespace s3fault::gate {
namespace {

std::string join_sizes(const std::vector<std::uint64_t>& sizes) {
  std::string text;
  for (const auto size : sizes) {
    text += (text.empty() ? "" : ",") + std::to_string(size);
  }
  return text;
}

/// "60", "0.5": the gate's --timeout as `timeout` takes it.
std::string timeout_argument(double seconds) {
  std::ostringstream text;
  text << seconds;
  return text.str();
}

bool replaces_object(const repro_inputs& in) {
  return in.run_scenario->action == scenario_action::replace_after_first_read;
}

bool reproduces_a_failure(const repro_inputs& in) {
  return in.outcome == run_outcome::failed;
}

/// The verdict the script compares its own with: the gate's, or for a NOT_EXERCISED run the
/// verdict its exit and bytes earned (the script does not tell which answers a fault touched).
verdict compared_verdict(const repro_inputs& in) {
  return in.outcome == run_outcome::not_exercised && in.observed ? *in.observed : in.gate_verdict;
}

/// The proxy keeps a journal: for the replacement's trigger, and for a pass to count the faults
/// applied.
bool keeps_journal(const repro_inputs& in) {
  return replaces_object(in) || !reproduces_a_failure(in);
}

/// "# Run it from any directory ..." and the exit statuses, for the header.
std::string exit_status_comment(const repro_inputs& in, const std::string& compared) {
  if (reproduces_a_failure(in)) {
    return "# Run it from any directory: bash repro.sh. Exit status 1 when " + compared +
           " reproduces,\n# 0 when it does not, 2 when the repro itself cannot run.";
  }
  return "# Run it from any directory: bash repro.sh. Exit status 0 when " + compared +
         " reproduces" +
         (in.run_scenario->needs_injection && in.outcome == run_outcome::passed
              ? " with a\n# fault applied, 1 when it does not,"
              : ",\n# 1 when it does not,") +
         " 2 when the repro itself cannot run.";
}

/// `s3fault fixture ...` for an object of the run's shape with `seed`, its bytes also in
/// $repro/`file`.
std::string fixture_command(const repro_inputs& in, std::uint32_t seed, const std::string& file) {
  std::string command = "\"$s3fault\" fixture --endpoint \"$store\" --bucket \"$bucket\" --key "
                        "\"$key\" --size " +
                        std::to_string(in.shape->size);
  if (in.shape->multipart()) {
    command += " --parts " + join_sizes(in.shape->part_sizes);
  }
  command += " --checksum " + in.shape->checksum;
  if (!in.shape->content_type.empty()) {
    command += " --content-type " + shell_quote(in.shape->content_type);
  }
  return command + " --seed " + std::to_string(seed) + " --expected \"$repro/" + file + "\"";
}

void write_header(std::ostream& out, const repro_inputs& in) {
  const std::string verdict_name(to_string(in.gate_verdict));
  const std::string compared(to_string(compared_verdict(in)));
  out << "#!/bin/bash\n"
      << "# Reproduces s3fault gate run " << in.run_scenario->name << " / " << in.shape->name
      << " (seed " << in.seed << ") of the " << role_name(in.role) << "\n#   " << in.client
      << "\n# The gate's verdict: " << verdict_name << " where "
      << to_string(in.run_scenario->expect)
      << (reproduces_a_failure(in) ? "" : " (" + std::string(to_string(in.outcome)) + ")")
      << ":\n#   " << in.why << "\n"
      << exit_status_comment(in, compared) << " Its files stay in a new temporary\n"
      << "# directory (named below); what it starts, and what it makes on the store, are "
         "removed when\n"
      << "# it ends.\n"
      << "s3fault=" << shell_quote(in.s3fault) << "\n"
      << "bucket=\"s3fault-repro-$(date +%s)-$$\"\n"
      << "key=" << shell_quote(in.key) << "\n"
      << "timeout=" << timeout_argument(in.timeout_seconds)
      << " # the run's timeout (the gate's --timeout, or the scenario's own), in seconds\n"
      << "gate_verdict=" << compared << "\n\n";
}

void write_helpers(std::ostream& out) {
  out << "could_not() { echo \"the repro could not run: $*\" >&2; exit 2; }\n"
      << "repro=$(mktemp -d -t s3fault-repro.XXXXXX) && mkdir \"$repro/home\" ||\n"
      << "  could_not \"no temporary directory\"\n"
      << "echo \"files in $repro\"\n\n"
      << "# Whatever this script starts or makes goes when it ends, however it ends: the proxy "
         "and the\n"
      << "# origin by PID, the object (and open uploads) under the key and the bucket on the "
         "store.\n"
      << "replacer_pid= proxy_pid= origin_pid= made_bucket=\n"
      << "clean_up() {\n"
      << "  kill $replacer_pid $proxy_pid 2>/dev/null\n"
      << "  [ -z \"$made_bucket\" ] ||\n"
      << "    \"$s3fault\" fixture --remove --endpoint \"$store\" --bucket \"$bucket\" --key "
         "\"$key\"\n"
      << "  kill $origin_pid 2>/dev/null\n"
      << "}\n"
      << "trap clean_up EXIT\n"
      << "trap 'exit 2' INT TERM HUP\n\n"
      << "# wait_url FILE PID: the URL that the origin or proxy just started prints once it "
         "listens;\n"
      << "# fails when it ended before.\n"
      << "wait_url() {\n"
      << "  until grep -q '^listening on ' \"$1\" 2>/dev/null; do\n"
      << "    kill -0 \"$2\" 2>/dev/null || return 1\n"
      << "    sleep 0.1\n"
      << "  done\n"
      << "  sed -n 's/^listening on //p' \"$1\" | head -n 1\n"
      << "}\n\n";
}

void write_store_step(std::ostream& out, const repro_inputs& in) {
  if (in.store.empty()) {
    out << "# 1. The store: an origin like the gate's embedded one (objects in memory), with "
           "its keys.\n"
        << "access_key=" << shell_quote(in.access_key)
        << " secret_key=" << shell_quote(in.secret_key) << "\n"
        << "\"$s3fault\" origin --listen 127.0.0.1:0 --access-key \"$access_key\" --secret-key "
           "\"$secret_key\" \\\n  --log-level off >\"$repro/origin.out\" 2>&1 &\n"
        << "origin_pid=$!\n"
        << "store=$(wait_url \"$repro/origin.out\" \"$origin_pid\") ||\n"
        << "  could_not \"the origin did not start: $(cat \"$repro/origin.out\")\"\n";
  } else {
    out << "# 1. The store the gate used; its keys come from your environment (never written "
           "here).\n"
        << "store=" << shell_quote(in.store) << "\n"
        << "[ -n \"${AWS_ACCESS_KEY_ID:-}\" ] && [ -n \"${AWS_SECRET_ACCESS_KEY:-}\" ] ||\n"
        << "  could_not \"set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY to the store keys\"\n"
        << "access_key=$AWS_ACCESS_KEY_ID secret_key=$AWS_SECRET_ACCESS_KEY\n";
  }
  out << "export AWS_ACCESS_KEY_ID=\"$access_key\" AWS_SECRET_ACCESS_KEY=\"$secret_key\" \\\n"
      << "  AWS_REGION=" << shell_quote(in.region)
      << " AWS_DEFAULT_REGION=" << shell_quote(in.region) << "\n\n";
}

void write_object_step(std::ostream& out, const repro_inputs& in) {
  out << "# 2. The object, with the run's bytes (seed " << in.seed
      << "), in a bucket of this script's own:\n"
      << "#    " << in.shape->description << ". $repro/expected holds the same bytes.\n"
      << "made_bucket=yes\n"
      << fixture_command(in, in.seed, "expected") << " ||\n"
      << "  could_not \"s3fault fixture failed (above)\"\n\n";
}

void write_input_step(std::ostream& out, const repro_inputs& in) {
  out << "# 2. The input: " << in.shape->size << " bytes, the run's bytes (seed " << in.seed
      << "), in $repro/input;\n"
      << "#    the key, in a bucket of this script's own, holds no object.\n"
      << "made_bucket=yes\n"
      << "\"$s3fault\" fixture --endpoint \"$store\" --bucket \"$bucket\" --key \"$key\" --size "
      << in.shape->size << " --seed " << in.seed
      << " --no-upload \\\n  --expected \"$repro/input\" || could_not \"s3fault fixture failed "
         "(above)\"\n";
  if (in.run_scenario->action == scenario_action::overwrite) {
    out << "# The object the key held before the writer started: other bytes, also in "
           "$repro/previous.\n"
        << fixture_command(in, in.seed + previous_seed_offset, "previous") << " ||\n"
        << "  could_not \"s3fault fixture failed (above)\"\n";
  }
  out << "\n";
}

void write_proxy_step(std::ostream& out, const repro_inputs& in) {
  const auto& s = *in.run_scenario;
  out << "# 3. The fault proxy (one thread, as the gate's), with the run's seed and the rules of\n"
      << "#    " << s.name << " (" << absolute_origin(s.origin, in.working_dir)
      << "), limited to the key.\n"
      << "cat >\"$repro/rules.json\" <<'S3FAULT_RULES'\n"
      << in.rules_document.dump(2) << "\nS3FAULT_RULES\n"
      << "\"$s3fault\" proxy --listen 127.0.0.1:0 --threads 1 --upstream \"$store\" --faults "
         "\"$repro/rules.json\" \\\n  "
      << (keeps_journal(in) ? "--journal \"$repro/journal.jsonl\" " : "")
      << "--log-level off >\"$repro/proxy.out\" 2>&1 &\n"
      << "proxy_pid=$!\n"
      << "endpoint=$(wait_url \"$repro/proxy.out\" \"$proxy_pid\") ||\n"
      << "  could_not \"the proxy did not start: $(cat \"$repro/proxy.out\")\"\n\n";
}

/// replaced-between-reads: the replacement, uploaded once the proxy's journal shows a GET.
void write_replacement_step(std::ostream& out, const repro_inputs& in) {
  out << "# The gate replaced the object (same size, other bytes) once the reader's first GET of "
         "it was\n"
      << "# answered, and held the reader's next request until the new object was in. A script "
         "cannot\n"
      << "# hold the reader: this one uploads the replacement once the proxy's journal (written "
         "once a\n"
      << "# second) shows a GET answered. The upload's time comes from the run's rules (the "
         "built-in\n"
      << "# scenario delays every later GET 3 s); on a slow store the reader may get there first, "
         "and\n"
      << "# then it reads the old object.\n"
      << "(until grep '\"operation\":\"GetObject\"' \"$repro/journal.jsonl\" 2>/dev/null |\n"
      << "         grep -q '\"status\":2'; do sleep 0.1; done\n"
      << " exec " << fixture_command(in, in.seed + replacement_seed_offset, "replacement")
      << " >\"$repro/replaced\") &\n"
      << "replacer_pid=$!\n\n";
}

void write_client_step(std::ostream& out, const repro_inputs& in) {
  const bool writer = in.role == run_role::writer;
  const std::string role(role_name(in.role));
  const std::string command =
      fill_placeholders(with_absolute_paths(in.client_command, in.working_dir),
                        "\"$S3FAULT_ENDPOINT\"", "\"$S3FAULT_BUCKET\"", "\"$S3FAULT_KEY\"",
                        "\"$S3FAULT_OUTPUT\"", writer ? "\"$S3FAULT_INPUT\"" : "");
  out << "# 4. The " << role
      << ", as the gate ran it: bash -c with its placeholders filled in by the S3FAULT_\n"
      << "#    variables, none of your AWS_ or S3FAULT_ settings but the run's, a HOME of its "
         "own, stdin\n"
      << "#    /dev/null, stdout and stderr to files. `timeout` stops its whole process group "
         "(TERM, then\n"
      << "#    KILL) when it still runs after $timeout seconds, and then says so in "
         "$repro/timeout.\n"
      << "client=$(cat <<'S3FAULT_CLIENT'\n"
      << command << "\nS3FAULT_CLIENT\n)\n"
      << "(for name in $(compgen -e); do case $name in AWS_* | S3FAULT_*) unset \"$name\" ;; "
         "esac; done\n"
      << " export AWS_ACCESS_KEY_ID=\"$access_key\" AWS_SECRET_ACCESS_KEY=\"$secret_key\" "
         "AWS_REGION="
      << shell_quote(in.region) << " \\\n   AWS_DEFAULT_REGION=" << shell_quote(in.region)
      << " AWS_EC2_METADATA_DISABLED=true HOME=\"$repro/home\" \\\n"
      << "   S3FAULT_ENDPOINT=\"$endpoint\" S3FAULT_BUCKET=\"$bucket\" S3FAULT_KEY=\"$key\" "
         "S3FAULT_OUTPUT=\"$repro/output\""
      << (writer ? " \\\n   S3FAULT_INPUT=\"$repro/input\"" : "") << "\n"
      << " exec timeout --verbose --kill-after=0.2 \"$timeout\" bash -c \"exec 2>&3 3>&-; "
         "$client\" \\\n"
      << "   </dev/null >\"$repro/stdout\" 3>\"$repro/stderr\" 2>\"$repro/timeout\")\n"
      << "status=$?\n"
      << "echo \"" << role << " exit status $status\"\n";
  if (replaces_object(in)) {
    out << "kill \"$replacer_pid\" 2>/dev/null\n"
        << "[ -s \"$repro/replaced\" ] && echo \"the object was replaced after the reader's "
           "first GET\" ||\n"
        << "  echo \"the object was not replaced: no GET of it had ended when the reader did\"\n";
  }
  out << "\n";
}

} // namespace

std::string repro_script(const repro_inputs& in) {
  std::ostringstream out;
  write_header(out, in);
  write_helpers(out);
  write_store_step(out, in);
  if (in.role == run_role::writer) {
    write_input_step(out, in);
  } else {
    write_object_step(out, in);
  }
  write_proxy_step(out, in);
  if (in.role == run_role::reader && replaces_object(in)) {
    write_replacement_step(out, in);
  }
  write_client_step(out, in);
  if (in.role == run_role::writer) {
    write_writer_verdict(out);
  } else {
    write_reader_verdict(out, replaces_object(in));
  }
  if (reproduces_a_failure(in)) {
    write_reproduced_step(out);
  } else {
    write_pass_reproduced_step(out, in.run_scenario->needs_injection,
                               in.outcome == run_outcome::not_exercised);
  }
  return out.str();
}

} // namespace s3fault::gate
