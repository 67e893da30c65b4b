#!/usr/bin/env bash
# bench/pg_compiles.sh — issue 14's load check through the real CLI: N processes
# × M `handoff compile` runs into a throw-away PostgreSQL cluster, then every
# snapshot must be stored with gap-free session numbers 1..N×M.
# A session is an agent session (issue 15): compiling one unchanged transcript
# N×M times would store it once. So each run compiles a distinct agent session
# (the sample transcript with its session id replaced by proc-run) into one
# workflow (--workflow wf_load): N×M sessions race for the next number.
# Usage: bench/pg_compiles.sh [PROCS] [EACH]   (default 8 300; needs Debian's postgresql)
set -euo pipefail
cd "$(dirname "$0")/.."
procs=${1:-8} each=${2:-300}
go build -o bin/handoff ./cmd/handoff
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
dir=$(mktemp -d); [ "$(id -u)" = 0 ] && chown postgres "$dir"
as_pg "$pgbin/initdb" -D "$dir/data" -A trust -U postgres --no-sync >/dev/null
printf "unix_socket_directories = '%s'\nport = 54331\nlisten_addresses = ''\nmax_connections = 200\n" "$dir" >> "$dir/data/postgresql.conf"
trap 'as_pg "$pgbin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
as_pg "$pgbin/pg_ctl" -D "$dir/data" -l "$dir/log" -w start >/dev/null
as_pg "$pgbin/createdb" -h "$dir" -p 54331 -U postgres handoff
url="postgres:///handoff?host=$dir&port=54331&user=postgres"
sid=7f3c2a1e-5b6d-4e8f-9a0b-1c2d3e4f5a6b # the sample's own session id
start=$(date +%s)
for p in $(seq "$procs"); do
  ( for i in $(seq "$each"); do
      sed "s/$sid/load-$p-$i/g" testdata/transcripts/claude-code-ratelimit.jsonl |
        bin/handoff compile --db "$url" --workflow wf_load --no-git -q --budget 500 >/dev/null || echo "compile failed: proc $p run $i" >&2
    done ) &
done
wait
secs=$(( $(date +%s) - start ))
psql=$pgbin/psql
stored=$(as_pg "$psql" -h "$dir" -p 54331 -U postgres -d handoff -Atc "select count(*) from session_snapshots")
gapfree=$(as_pg "$psql" -h "$dir" -p 54331 -U postgres -d handoff -Atc "select count(*) = max(session_number) and min(session_number) = 1 and count(distinct session_number) = count(*) and count(distinct agent_session) = count(*) from session_snapshots group by workflow_id")
workflows=$(as_pg "$psql" -h "$dir" -p 54331 -U postgres -d handoff -Atc "select count(*) from workflows")
echo "$procs processes × $each compiles: $stored/$((procs*each)) stored in $workflows workflow(s), gap-free session numbers (one per agent session): $gapfree, ${secs}s wall"
