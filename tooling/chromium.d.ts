export const chromiumPath: string;
export const hasChromium: boolean;
export function chromiumLaunchOptions(): {
  executablePath: string;
  timeout: number;
  args: string[];
};
export function noChromiumMessage(test: string): string;
