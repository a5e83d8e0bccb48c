// Asks the person on their phone and prints the answer.
// Run: SVC_URL=https://svc.example/functions/v1/svc-mcp SVC_TOKEN=svc_ct_... npm start
import { connect } from '@screen-service/agent';

/** Asks two questions with `svc` and writes one line per answer with `print`. */
export async function askAndPrint(svc, print = console.log) {
  const lunch = await svc.choose('Lunch?', ['Soup', 'Salad', 'Pizza']);
  print(`Lunch: ${lunch}`);
  const hungry = await svc.checkin('scale', 'How hungry are you?', { max: 5 });
  print(`Hunger: ${hungry}/5`);
  await svc.say(`${lunch} for a ${hungry}/5 hunger. Ordering now.`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { SVC_URL, SVC_TOKEN } = process.env;
  if (!SVC_URL || !SVC_TOKEN) {
    console.error(
      'Set SVC_URL (the tool server, .../functions/v1/svc-mcp) and SVC_TOKEN (svc_ct_... or svc_at_...).',
    );
    process.exit(2);
  }
  const svc = connect({ url: SVC_URL, token: SVC_TOKEN });
  try {
    await askAndPrint(svc);
  } finally {
    await svc.close();
  }
}
