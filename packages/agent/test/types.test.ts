// The inferred answer types (checked by `tsc` in `npm run typecheck` and by vitest's expectTypeOf at run time).
import { describe, expectTypeOf, it } from 'vitest';
import { type Answer, connect, type Row, type Screen, type Svc } from '../src/index.js';

// Never called: the bodies exist for the type checker.
declare const svc: Svc;

describe('answer types', () => {
  it('choose answers the literal union of its options; multi a list of them', () => {
    async function check() {
      const lunch = await svc.choose('Lunch?', ['Soup', 'Salad']);
      expectTypeOf(lunch).toEqualTypeOf<'Soup' | 'Salad'>();
      const toppings = await svc.choose('Toppings?', ['Cheese', 'Olives'], { multi: true });
      expectTypeOf(toppings).toEqualTypeOf<('Cheese' | 'Olives')[]>();
      const options = ['A', 'B'] as const;
      expectTypeOf(await svc.choose('Pick', options)).toEqualTypeOf<'A' | 'B'>();
      // A default must be one of the options.
      await svc.choose('Lunch?', ['Soup', 'Salad'], { deadline: { in: 60, default: 'Soup' } });
      // @ts-expect-error 'Pizza' is not an option
      await svc.choose('Lunch?', ['Soup', 'Salad'], { deadline: { in: 60, default: 'Pizza' } });
      // Escalation steps: an offer names its holders.
      await svc.choose('Lunch?', ['Soup', 'Salad'], {
        deadline: {
          in: 600,
          escalate: [
            { at: '50%', do: 'remind' },
            { at: '-2m', do: 'offer', to: ['usr_1'] },
          ],
        },
      });
      // @ts-expect-error an offer without `to` reaches nobody
      await svc.choose('Lunch?', ['Soup'], { deadline: { in: 600, escalate: [{ at: '50%', do: 'offer' }] } });
    }
    expectTypeOf(check).toBeFunction();
  });

  it('confirm, ask, checkin and photo answer their value types', () => {
    async function check() {
      expectTypeOf(await svc.confirm('Deploy?')).toEqualTypeOf<boolean>();
      expectTypeOf(await svc.ask('Name?')).toEqualTypeOf<string>();
      expectTypeOf(await svc.ask('Weight?', { type: 'number' })).toEqualTypeOf<number>();
      expectTypeOf(await svc.ask('When?', { type: 'date' })).toEqualTypeOf<string>();
      // @ts-expect-error ask has no bool type (use confirm)
      await svc.ask('Yes?', { type: 'bool' });
      expectTypeOf(await svc.checkin('mood', 'How are you?')).toEqualTypeOf<number>();
      expectTypeOf(await svc.photo('Plate')).toEqualTypeOf<{ count: number; photos: string[] }>();
    }
    expectTypeOf(check).toBeFunction();
  });

  it('form answers each field with its type, every field optional', () => {
    async function check() {
      const visit = await svc.form('Visit', { name: 'text', age: 'number', ok: 'bool' });
      expectTypeOf(visit).toEqualTypeOf<{ name?: string; age?: number; ok?: boolean }>();
      // @ts-expect-error not a field type
      await svc.form('Bad', { name: 'colour' });
    }
    expectTypeOf(check).toBeFunction();
  });

  it('tables give typed rows; show gives a screen whose answers are Answers', () => {
    async function check() {
      const weight = svc.tables.table('weight', { Day: 'date', Kg: 'number', Done: 'bool' });
      const rows = await weight.query({ sort: ['-Day'], where: { Done: true } });
      expectTypeOf(rows).toEqualTypeOf<
        Row<{ readonly Day: 'date'; readonly Kg: 'number'; readonly Done: 'bool' }>[]
      >();
      expectTypeOf(rows[0]!.Kg).toEqualTypeOf<number | null>();
      await weight.put([{ key: 'd1', Kg: 70, Done: false }]);
      // @ts-expect-error Kg holds numbers
      await weight.put([{ Kg: 'heavy' }]);
      // @ts-expect-error no such column to sort on
      await weight.query({ sort: ['Height'] });
      const screen = await svc.show('choose "Lunch?" Soup|Salad');
      expectTypeOf(screen).toEqualTypeOf<Screen>();
      expectTypeOf(await screen.answer()).toEqualTypeOf<Answer>();
    }
    expectTypeOf(check).toBeFunction();
    expectTypeOf(connect).returns.toEqualTypeOf<Svc>();
  });
});
