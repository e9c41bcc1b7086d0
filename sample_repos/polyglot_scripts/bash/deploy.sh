#!/usr/bin/env bash
# Deploys the storefront's static build to the two edge servers, one at a time, and rolls
# back to the previous release if the health check fails on either of them.
#
# Usage: deploy.sh [--dry-run] RELEASE_DIR
set -euo pipefail

readonly EDGE_HOSTS=("edge-par-1.shop.internal" "edge-lyo-1.shop.internal")
readonly RELEASES_ROOT="/srv/storefront/releases"
readonly KEEP_RELEASES=5
DRY_RUN=0

log() {
  printf '%s [deploy] %s\n' "$(date -u +%FT%TZ)" "$*" >&2
}

die() {
  log "error: $*"
  exit 1
}

# Runs a command on a host, or only prints it with --dry-run.
remote() {
  local host="$1"
  shift
  if (( DRY_RUN )); then
    log "would run on ${host}: $*"
    return 0
  fi
  ssh -o BatchMode=yes -o ConnectTimeout=10 "deploy@${host}" "$@"
}

# Parses the command line into DRY_RUN and RELEASE_DIR.
function parse_args {
  while (( $# > 0 )); do
    case "$1" in
      --dry-run)
        DRY_RUN=1
        ;;
      -h|--help)
        sed -n '2,5p' "$0"
        exit 0
        ;;
      *)
        RELEASE_DIR="$1"
        ;;
    esac
    shift
  done
  [[ -n "${RELEASE_DIR:-}" ]] || die "no release directory given"
  [[ -f "${RELEASE_DIR}/index.html" ]] || die "${RELEASE_DIR} has no index.html"
}

# Copies the build to one host and switches the `current` symlink to it.
function push_release() {
  local host="$1" release="$2"
  local target="${RELEASES_ROOT}/${release}"

  previous_release() {
    remote "$host" readlink "${RELEASES_ROOT}/current" || true
  }

  PREVIOUS["$host"]="$(previous_release)"
  log "${host}: previous release ${PREVIOUS[$host]:-none}"
  if (( ! DRY_RUN )); then
    rsync -az --delete "${RELEASE_DIR}/" "deploy@${host}:${target}/"
  fi
  remote "$host" ln -sfn "$target" "${RELEASES_ROOT}/current"
}

healthy() {
  local host="$1" attempt
  for attempt in 1 2 3 4 5; do
    if curl -fsS --max-time 3 "https://${host}/healthz" | grep -q '"status":"ok"'; then
      return 0
    fi
    log "${host}: not healthy yet (attempt ${attempt})"
    sleep $(( attempt * 2 ))
  done
  return 1
}

rollback() {
  local host="$1"
  local previous="${PREVIOUS[$host]:-}"
  [[ -n "$previous" ]] || die "${host}: nothing to roll back to"
  log "${host}: rolling back to ${previous}"
  remote "$host" ln -sfn "$previous" "${RELEASES_ROOT}/current"
}

prune_old_releases() {
  remote "$1" "ls -1dt ${RELEASES_ROOT}/*/ | tail -n +$(( KEEP_RELEASES + 1 )) | xargs -r rm -rf"
}

declare -A PREVIOUS=()
parse_args "$@"
release="$(basename "$RELEASE_DIR")-$(date -u +%Y%m%d%H%M)"
log "deploying ${release} to ${#EDGE_HOSTS[@]} hosts"

for host in "${EDGE_HOSTS[@]}"; do
  push_release "$host" "$release"
  if ! healthy "$host"; then
    rollback "$host"
    die "${host} failed its health check; ${release} was rolled back there"
  fi
  prune_old_releases "$host"
done

cat <<EOF
Deployed ${release}.
Hosts: ${EDGE_HOSTS[*]}
EOF
