import type { CAC, Command } from 'cac';

/**
 * The help of one command (what it does, the values it accepts, its options and examples), or of a
 * group when no command matched. A command's description is its summary line, then more lines that
 * only its own help shows.
 */
export function formatHelp(cli: CAC, extra: readonly { name: string; summary: string }[] = []): string {
  const command = cli.matchedCommand;
  return command ? formatCommand(cli, command) : formatGroup(cli, extra);
}

/** The first line of a description, for listings. */
export function toSummary(description: string): string {
  return description.split('\n')[0]!;
}

// --- internal ---

function formatCommand(cli: CAC, command: Command): string {
  const [summary, ...more] = command.description.split('\n');
  const sections = [`Usage: ${cli.name} ${command.usageText ?? command.rawName}`, `${summary}.`];
  if (more.length) sections.push(more.join('\n'));
  const options = [...command.options, ...cli.globalCommand.options];
  sections.push(
    `Options:\n` +
      formatRows(
        options.map((option) => [
          option.rawName,
          option.description +
            (option.config.default === undefined ? '' : ` (default: ${String(option.config.default)})`),
        ]),
      ),
  );
  if (command.examples.length)
    sections.push(
      `Examples:\n` +
        command.examples
          .map((example) => `  ${typeof example === 'function' ? example(cli.name) : example}`)
          .join('\n'),
    );
  return `${sections.join('\n\n')}\n`;
}

function formatGroup(cli: CAC, extra: readonly { name: string; summary: string }[]): string {
  const commands = cli.commands.filter((command) => command.name !== '' && !command.name.startsWith('['));
  const rows = [
    ...commands.map((command) => [command.rawName, toSummary(command.description)] as [string, string]),
    ...extra.map((group) => [`${group.name} ...`, group.summary] as [string, string]),
  ];
  return (
    [
      `Usage: ${cli.name} <command> [options]`,
      `Commands:\n${formatRows(rows)}`,
      `Run \`${cli.name} <command> --help\` for what a command does, the values it accepts and its options.`,
    ].join('\n\n') + '\n'
  );
}

function formatRows(rows: readonly [string, string][]): string {
  const width = Math.max(...rows.map(([name]) => name.length));
  return rows.map(([name, text]) => `  ${name.padEnd(width)}  ${text}`.trimEnd()).join('\n');
}
