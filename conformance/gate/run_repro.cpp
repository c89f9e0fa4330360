#include "conformance/gate/run_repro.hpp"

#include "conformance/gate/fixture_upload.hpp"
#include "conformance/gate/reader_process.hpp"

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

/// `s3fault fixture ...` for the run's object (or its replacement, with another seed).
std::string fixture_command(const repro_inputs& in, std::uint32_t seed,
                            const std::string& expected_file) {
  std::string command = shell_quote(in.s3fault) + " fixture --endpoint \"$store\" --bucket " +
                        shell_quote(in.bucket) + " --key " + shell_quote(in.key) + " --size " +
                        std::to_string(in.shape->size);
  if (in.shape->multipart()) {
    command += " --parts " + join_sizes(in.shape->part_sizes);
  }
  command += " --checksum " + in.shape->checksum;
  if (!in.shape->content_type.empty()) {
    command += " --content-type " + shell_quote(in.shape->content_type);
  }
  return command + " --seed " + std::to_string(seed) + " --expected \"$repro/" + expected_file +
         "\"";
}

void start_store(std::ostream& out, const repro_inputs& in) {
  if (in.store.empty()) {
    out << "# the store: an origin like the gate's embedded one\n"
        << shell_quote(in.s3fault)
        << " origin --listen 127.0.0.1:0 --log-level off >\"$repro/origin.out\" & "
           "origin_pid=$!\n"
        << "store=$(wait_url \"$repro/origin.out\")\n"
        << "export AWS_ACCESS_KEY_ID=" << shell_quote(in.access_key)
        << " AWS_SECRET_ACCESS_KEY=" << shell_quote(in.secret_key) << "\n";
  } else {
    out << "# the store the gate used; its keys come from your environment\n"
        << "store=" << shell_quote(in.store) << " origin_pid=\n"
        << ": \"${AWS_ACCESS_KEY_ID:?export the store's keys}\" "
           "\"${AWS_SECRET_ACCESS_KEY:?export the store's keys}\"\n";
  }
  out << "export AWS_REGION=" << shell_quote(in.region)
      << " AWS_DEFAULT_REGION=" << shell_quote(in.region) << "\n";
}

void run_reader_step(std::ostream& out, const repro_inputs& in) {
  const std::string filled =
      fill_placeholders(in.client_command, "\"$endpoint\"", shell_quote(in.bucket),
                        shell_quote(in.key), "\"$repro/output\"");
  out << "# the reader, as the gate ran it (its own HOME, the run's variables)\n"
      << "(unset AWS_PROFILE AWS_SESSION_TOKEN AWS_CONFIG_FILE AWS_SHARED_CREDENTIALS_FILE\n"
      << " export HOME=\"$repro/home\" S3FAULT_ENDPOINT=\"$endpoint\" S3FAULT_BUCKET="
      << shell_quote(in.bucket) << " S3FAULT_KEY=" << shell_quote(in.key)
      << " S3FAULT_OUTPUT=\"$repro/output\"\n"
      << " " << filled << ") </dev/null >\"$repro/stdout\" 2>\"$repro/stderr\"\n"
      << "echo \"reader exit status $?\"\n"
      << "[ -e \"$repro/output\" ] || cp \"$repro/stdout\" \"$repro/output\"\n";
}

void run_writer_step(std::ostream& out, const repro_inputs& in) {
  const std::string filled =
      fill_placeholders(in.client_command, "\"$endpoint\"", shell_quote(in.bucket),
                        shell_quote(in.key), "\"$repro/output\"", "\"$repro/input\"");
  out << "# the writer, as the gate ran it (its own HOME, the run's variables)\n"
      << "(unset AWS_PROFILE AWS_SESSION_TOKEN AWS_CONFIG_FILE AWS_SHARED_CREDENTIALS_FILE\n"
      << " export HOME=\"$repro/home\" S3FAULT_ENDPOINT=\"$endpoint\" S3FAULT_BUCKET="
      << shell_quote(in.bucket) << " S3FAULT_KEY=" << shell_quote(in.key)
      << " S3FAULT_OUTPUT=\"$repro/output\" S3FAULT_INPUT=\"$repro/input\"\n"
      << " " << filled << ") </dev/null >\"$repro/stdout\" 2>\"$repro/stderr\"\n"
      << "echo \"writer exit status $?\"\n"
      << "# what the store holds under the key, read straight from it (not through the proxy)\n"
      << shell_quote(in.s3fault) << " read robust-parts --endpoint \"$store\" --bucket "
      << shell_quote(in.bucket) << " --key " << shell_quote(in.key)
      << " --output \"$repro/stored\" 2>&1 | tail -n 1\n"
      << "cmp \"$repro/stored\" \"$repro/input\" && echo \"the store holds the input\" ||\n"
      << "  echo \"the store does not hold the input (see above)\"\n";
  if (in.run_scenario->action == scenario_action::overwrite) {
    out << "cmp -s \"$repro/stored\" \"$repro/previous\" && "
           "echo \"the store still holds the previous object\"\n";
  }
}

/// `s3fault fixture --no-upload`: the writer's input file, and the key emptied.
std::string input_command(const repro_inputs& in) {
  return shell_quote(in.s3fault) + " fixture --endpoint \"$store\" --bucket " +
         shell_quote(in.bucket) + " --key " + shell_quote(in.key) + " --size " +
         std::to_string(in.shape->size) + " --seed " + std::to_string(in.seed) +
         " --no-upload --expected \"$repro/input\"";
}

void start_proxy(std::ostream& out, const repro_inputs& in) {
  out << "# the fault rules of " << in.run_scenario->name << ", with the run's seed\n"
      << "cat >\"$repro/rules.json\" <<'S3FAULT_RULES'\n"
      << in.rules_document.dump(2) << "\nS3FAULT_RULES\n"
      << shell_quote(in.s3fault)
      << " proxy --listen 127.0.0.1:0 --upstream \"$store\" --faults \"$repro/rules.json\" "
         "--log-level off >\"$repro/proxy.out\" & proxy_pid=$!\n"
      << "endpoint=$(wait_url \"$repro/proxy.out\")\n";
}

} // namespace

std::string repro_script(const repro_inputs& in) {
  std::ostringstream out;
  out << "# reproduce gate run " << in.run_scenario->name << " / " << in.shape->name << " (seed "
      << in.seed << "): paste into bash where the gate ran\n"
      << "repro=$(mktemp -d) && mkdir \"$repro/home\" && echo \"files in $repro\"\n"
      << "wait_url() { until grep -q '^listening on ' \"$1\" 2>/dev/null; do sleep 0.1; done; "
         "sed -n 's/^listening on //p' \"$1\" | head -n 1; }\n";
  start_store(out, in);
  if (in.role == run_role::writer) {
    out << "# the input: " << in.shape->description << ", the run's bytes; the key empty\n"
        << input_command(in) << "\n";
    if (in.run_scenario->action == scenario_action::overwrite) {
      out << "# the object the key held before the writer started (other bytes)\n"
          << fixture_command(in, in.seed + previous_seed_offset, "previous") << "\n";
    }
    start_proxy(out, in);
    run_writer_step(out, in);
    out << "kill $proxy_pid $origin_pid\n";
    return out.str();
  }
  out << "# the object: " << in.shape->description << ", the run's bytes\n"
      << fixture_command(in, in.seed, "expected") << "\n";
  if (in.run_scenario->action == scenario_action::replace_after_first_read) {
    out << "# the gate replaced the object after the reader's first GET; to do the same, run "
           "this then:\n# "
        << fixture_command(in, in.seed + replacement_seed_offset, "replacement") << "\n";
  }
  start_proxy(out, in);
  run_reader_step(out, in);
  out << "cmp \"$repro/output\" \"$repro/expected\" && echo \"the output is the object\" ||\n"
      << "  echo \"the output is not the object (see above)\"\n"
      << "kill $proxy_pid $origin_pid\n";
  return out.str();
}

} // namespace s3fault::gate
