// paw-tui governance for opencode (written by 'paw-tui install opencode'; the next install
// replaces it, so keep your own plugins in other files).
//
// opencode has no command hooks: this plugin, loaded in opencode's own process, asks the
// paw-tui gate about every tool call that is not read-only and throws to refuse it (opencode
// gives the model the message as the tool's result, and the session goes on). It fails closed:
// when the gate cannot run, exits with anything but an answer, answers garbage or takes longer
// than TIMEOUT_MS (opencode waits for a plugin forever), the call is refused, saying why.
//
// Which paw-tui runs: $PAW_TUI_HOOK, else the hook script named in .opencode/paw-tui.hook (this
// machine's, written by install, git-ignored), else the paw-tui on the PATH.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const TIMEOUT_MS = 20000;
const END_TIMEOUT_MS = 5000;
const LOCAL_SETTINGS = join(".opencode", "paw-tui.hook");
const READ_ONLY = new Set(/*READ_ONLY*/[]);
const MARKERS = ["OPENCODE", "OPENCODE_PID"]; // an agent's tool environment, not a hook's
const FALLBACK =
  "paw-tui policy: the paw-tui gate could not run here (%s). Install paw-tui and run " +
  "'paw-tui install opencode' in this repository; denying (fail closed).";

function hookCommand(directory) {
  if (process.env.PAW_TUI_HOOK) return process.env.PAW_TUI_HOOK;
  try {
    const named = readFileSync(join(directory, LOCAL_SETTINGS), "utf8").trim();
    if (named) return named;
  } catch {}
  return "paw-tui";
}

function gateEnvironment() {
  const env = { ...process.env };
  for (const name of MARKERS) delete env[name];
  return env;
}

// The gate's answer to one event: {decision, reason, context}, or {failed: why}.
function ask(directory, home, payload, timeout = TIMEOUT_MS) {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(hookCommand(home), ["gate", "--client", "opencode"], {
        cwd: directory,
        env: gateEnvironment(),
        stdio: ["pipe", "pipe", "pipe"],
      });
    } catch (error) {
      resolve({ failed: String(error && error.message) });
      return;
    }
    let stdout = "";
    let stderr = "";
    let done = false;
    const finish = (answer) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(answer);
    };
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      finish({ failed: `no answer within ${timeout / 1000} s` });
    }, timeout);
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", (error) => finish({ failed: String(error && error.message) }));
    child.on("close", (code) => {
      if (code !== 0 && code !== 2) {
        finish({ failed: `exit ${code}: ${stderr.trim().slice(0, 300)}` });
        return;
      }
      try {
        const answer = JSON.parse(stdout);
        if (answer && (answer.decision === "allow" || answer.decision === "deny")) {
          finish(code === 2 ? { ...answer, decision: "deny" } : answer);
          return;
        }
      } catch {}
      finish({ failed: `exit ${code} without an answer` });
    });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(payload));
  });
}

export const PawTui = async ({ directory, worktree }) => {
  const home = worktree || directory; // where .opencode/ is
  const parents = new Map(); // a sub-agent's session -> its parent's
  const briefings = new Map(); // a session -> the governance section of its current turn
  const guidance = new Map(); // a call -> what the gate said to add to its result
  const seen = new Set();
  const root = (session) => {
    let current = session;
    while (parents.has(current)) current = parents.get(current);
    seen.add(current);
    return current;
  };
  const end = (session) =>
    ask(directory, home, { event: "session.end", sessionID: session, directory }, END_TIMEOUT_MS);
  // one tool call, before it runs or after, under its session's root (a sub-agent's parent)
  const toolEvent = (event, input, args) =>
    ask(directory, home, {
      event,
      sessionID: root(input.sessionID),
      callID: input.callID,
      tool: input.tool,
      args,
      directory,
    });
  return {
    "tool.execute.before": async (input, output) => {
      if (READ_ONLY.has(input.tool)) return;
      const answer = await toolEvent("tool.execute.before", input, output.args);
      if (answer.failed) throw new Error(FALLBACK.replace("%s", answer.failed));
      if (answer.decision !== "allow") throw new Error(answer.reason || "Denied by paw-tui.");
      if (answer.context) guidance.set(input.callID, answer.context);
    },
    "tool.execute.after": async (input, output) => {
      if (READ_ONLY.has(input.tool)) return;
      const answer = await toolEvent("tool.execute.after", input, input.args);
      const notes = [guidance.get(input.callID), answer.context].filter(Boolean);
      guidance.delete(input.callID);
      if (notes.length && typeof output.output === "string") {
        output.output += "\n\n" + notes.join("\n\n");
      }
    },
    "chat.message": async (input, output) => {
      const session = root(input.sessionID);
      const prompt = (output.parts || [])
        .filter((part) => part && part.type === "text" && typeof part.text === "string")
        .map((part) => part.text)
        .join("\n");
      const answer = await ask(directory, home, {
        event: "chat.message",
        sessionID: session,
        prompt,
        directory,
      });
      const text = answer.failed ? FALLBACK.replace("%s", answer.failed) : answer.context;
      if (text) briefings.set(session, text);
    },
    "experimental.chat.system.transform": async (input, output) => {
      const text = input && input.sessionID ? briefings.get(root(input.sessionID)) : undefined;
      if (text) output.system.push(text);
    },
    event: async ({ event }) => {
      const info = event && event.properties && event.properties.info;
      if (event.type === "session.created" && info && info.parentID) {
        parents.set(info.id, info.parentID);
      } else if (event.type === "session.deleted" && info && !info.parentID) {
        seen.delete(info.id);
        await end(info.id);
      }
    },
    dispose: async () => {
      await Promise.all([...seen].map(end));
      seen.clear();
    },
  };
};
