import { z } from 'zod';

/** `{name, botId}` (a bot of one's own) or `{name, settings}` (a create form's fields, a range too). */
export const saveTemplateSchema = z
  .object({
    name: z
      .string({ required_error: 'Name is required', invalid_type_error: 'Name must be text' })
      .trim()
      .min(1, 'Name is required')
      .max(60, 'Name must be at most 60 characters'),
    botId: z.string({ invalid_type_error: 'botId must be a bot id' }).optional(),
    settings: z.record(z.unknown(), { invalid_type_error: 'settings must be an object of bot fields' }).optional(),
  })
  .strict()
  .refine((v) => (v.botId === undefined) !== (v.settings === undefined), { message: 'Give either botId or settings', path: ['botId'] });
