// zod schemas of the person's native-agent controls: what the service offers, add one, its instructions.
import { AGENT_COLORS } from '@screen-service/theme';
import { z } from 'zod';

const id = z.string().min(1).max(100);
const iso = z.string().meta({ format: 'date-time' });

export const nativeStarter = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    color: z.enum(AGENT_COLORS),
    theme: z.record(z.string(), z.unknown()),
    tables: z.array(z.string()).meta({ description: 'the starter tables it ships with' }),
  })
  .meta({ id: 'NativeStarter' });

export const nativeOffer = z
  .object({
    available: z
      .boolean()
      .meta({ description: 'false when the operator configured no model: the app offers no native agents' }),
    starters: z.array(nativeStarter),
  })
  .meta({ id: 'NativeOffer' });

export const addNativeBody = z
  .object({
    starter: z.string().min(1).max(40).optional().meta({ description: 'a starter id from GET /native' }),
    name: z.string().max(40).optional().meta({ description: 'a blank agent: its name' }),
    instructions: z
      .string()
      .max(8000)
      .optional()
      .meta({ description: 'a blank agent: its system prompt, written by the person' }),
  })
  .meta({ id: 'AddNativeAgent' });

export const nativeInstructions = z
  .object({
    agent_id: id,
    template: z.string().nullable().meta({ description: 'the starter it came from; null for a blank agent' }),
    instructions: z.string(),
    updated_at: iso,
  })
  .meta({ id: 'NativeInstructions' });

export const instructionsBody = z
  .object({ instructions: z.string().max(8000) })
  .meta({ id: 'NativeInstructionsUpdate' });
