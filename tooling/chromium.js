// @ts-check
import { existsSync } from "node:fs";

/** The Chromium the browser tests drive: `$CHROMIUM_PATH`, else Debian's `/usr/bin/chromium`. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Whether that Chromium is installed (browser tests skip, with a message, when it is not). */
export const hasChromium = existsSync(chromiumPath);

/**
 * playwright-core's `chromium.launch` options for that binary, with the flags that work on the
 * CI machines (root, no GPU, no network): headless, no sandbox, no background services.
 * @returns {{ executablePath: string, timeout: number, args: string[] }}
 */
export function chromiumLaunchOptions() {
  return {
    executablePath: chromiumPath,
    timeout: 60_000,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  };
}

/**
 * The message a browser test prints when it skips for want of Chromium.
 * @param {string} test the test file's name
 * @returns {string}
 */
export function noChromiumMessage(test) {
  return (
    `${test}: skipped, no Chromium at ${chromiumPath}. Install it (Debian/Ubuntu: ` +
    "`apt-get install chromium`; .ci/run does when root) or set CHROMIUM_PATH to a Chromium binary."
  );
}
