import { useState } from 'react';
import { useGetBotsQuery } from '../api/api';
import { styleOf } from '../styles/registry';
import { describeError, type ApiError } from '../api/http';
import type { Bot, BotType } from '../api/types';
import { Field, SelectField } from '../components/Field';
import { useAppDispatch, useUser } from '../store/hooks';
import { ui } from '../store/uiSlice';
import { pairLabel } from './pairs';
import { useDeleteTemplateMutation, useGetTemplatesQuery, useSaveTemplateMutation, type TemplateSettings } from './templatesApi';

/**
 * Templates and copies in the bot form (issue 32, docs/range-and-templates.md). "Start from" (create
 * form) fills the form with a saved template's settings or a copy of one of the user's bots of the same
 * type; the form then checks them against today's market like any values typed in (steps, minimums,
 * the entry against the current price, the cost against the balance). "Make a template" (create and
 * edit) keeps the form's settings under a name; a template chosen can be deleted.
 */

export const TEMPLATE_TEXTS = {
  startFrom: 'Start from',
  blank: 'Blank form',
  saveAs: 'Make a template',
  name: 'Template name',
  save: 'Create template',
  delete: 'Delete template',
  saved: 'Template saved!',
  saveFailed: 'Error saving template!',
  deleted: 'Template deleted!',
  deleteFailed: 'Error deleting template!',
  nameRequired: 'Name is required',
} as const;

/** A bot's settings as a template holds them (the create body's fields). */
export function settingsOfBot(b: Bot & Record<string, unknown>): TemplateSettings {
  const opt = (k: string) => (b[k] === undefined || b[k] === null ? undefined : b[k]);
  const out: TemplateSettings = {
    botType: b.bottype,
    exchange: b.exchange,
    symbol: b.symbol,
    numOfOrders: b.numoforders,
    orderSize: b.ordersize,
    interval: b.interval,
    entryPrice: b.entryprice,
    takeProfit: b.takeprofit,
    leverage: b.leverage ?? 1,
  };
  const extra: Record<string, unknown> = {
    spacing: opt('spacing'),
    sizeScale: opt('sizescale'),
    stopLossPercent: opt('stoplosspercent'),
    stopLossPrice: opt('stoplossprice'),
    trailingDeviation: opt('trailingdeviation'),
    reanchor: opt('reanchor'),
    reanchorLimit: opt('reanchorlimit'),
    trailDownLimit: opt('traildownlimit'),
    direction: opt('direction'),
  };
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) (out as unknown as Record<string, unknown>)[k] = v;
  return out;
}

interface Props {
  idp: string;
  botType: BotType;
  editing: boolean;
  /** Fills the form with these settings. */
  onApply: (settings: TemplateSettings) => void;
  /** The form's settings as a create body, or null while the form is not valid. */
  current: () => Record<string, unknown> | null;
  /** Issue 40: why the form's settings are not valid yet (saveReasons' lines), for a template asked too early. */
  blockers?: () => string[];
}

export function TemplateBar({ idp, botType, editing, onApply, current, blockers }: Props) {
  const user = useUser()!;
  const dispatch = useAppDispatch();
  const { data: templates = [] } = useGetTemplatesQuery();
  const { data: bots = [] } = useGetBotsQuery(user.uid, { skip: editing });
  const [saveTemplate, saving] = useSaveTemplateMutation();
  const [deleteTemplate] = useDeleteTemplateMutation();
  const [from, setFrom] = useState('');
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);

  const ofType = templates.filter((t) => t.settings.botType === botType);
  // (an infinity bot, issue 32, has no ladder to copy: its ladder fields are 0; the bar is the ladder form's)
  const copies = bots.filter((b) => b.bottype === botType && styleOf(b).ladderTools);
  const options = [
    { value: '', label: TEMPLATE_TEXTS.blank },
    ...ofType.map((t) => ({ value: `t:${t.id}`, label: `Template: ${t.name} (${pairLabel(t.settings.symbol)})` })),
    ...copies.map((b) => ({ value: `b:${b.id}`, label: `Copy of bot: ${b.name ? `“${b.name}”, ` : ''}${pairLabel(b.symbol)} on ${b.exchange}, entry ${b.entryprice}` })),
  ];
  const chosen = from.startsWith('t:') ? ofType.find((t) => t.id === from.slice(2)) : undefined;

  const choose = (v: string) => {
    setFrom(v);
    if (v.startsWith('t:')) {
      const t = ofType.find((x) => x.id === v.slice(2));
      if (t) onApply(t.settings);
    } else if (v.startsWith('b:')) {
      const b = copies.find((x) => x.id === v.slice(2));
      if (b) onApply(settingsOfBot(b as Bot & Record<string, unknown>));
    }
  };

  const save = async () => {
    const settings = current();
    if (!name.trim()) return setNameError(TEMPLATE_TEXTS.nameRequired);
    // issue 40: say which fields are missing or wrong, not only that some are
    if (!settings) return setNameError(`Fill in the form first: ${(blockers?.() ?? []).join('; ') || 'Missing form values!'}`);
    setNameError(null);
    const res = await saveTemplate({ name: name.trim(), settings });
    if ('error' in res && res.error) {
      const err = res.error as Partial<ApiError>;
      const onName = err.errors?.find((e) => e.field === 'name');
      if (onName) return setNameError(onName.message);
      dispatch(ui.toast('error', TEMPLATE_TEXTS.saveFailed, describeError(res.error)));
      return;
    }
    dispatch(ui.toast('success', TEMPLATE_TEXTS.saved));
    setNaming(false);
    setName('');
  };

  const remove = async () => {
    if (!chosen) return;
    const res = await deleteTemplate(chosen.id);
    if ('error' in res && res.error) {
      dispatch(ui.toast('error', TEMPLATE_TEXTS.deleteFailed, describeError(res.error)));
      return;
    }
    setFrom('');
    dispatch(ui.toast('success', TEMPLATE_TEXTS.deleted));
  };

  return (
    <div className="template-bar" data-testid="template-bar">
      {!editing ? (
        <div className="template-bar__from">
          <SelectField id={`${idp}-from`} label={TEMPLATE_TEXTS.startFrom} name="startFrom" value={from} onValue={choose} options={options} />
          {chosen ? (
            <button type="button" className="link link--small" onClick={remove}>
              {TEMPLATE_TEXTS.delete}
            </button>
          ) : null}
        </div>
      ) : null}
      <div className="template-bar__save">
        {naming ? (
          <>
            <Field id={`${idp}-template-name`} label={TEMPLATE_TEXTS.name} name="templateName" maxLength={60} autoComplete="off" value={name} onValue={setName} error={nameError} />
            <button type="button" className="btn btn--ghost btn--small" onClick={save} disabled={saving.isLoading}>
              {TEMPLATE_TEXTS.save}
            </button>
          </>
        ) : (
          <button type="button" className="link link--small" onClick={() => setNaming(true)}>
            {TEMPLATE_TEXTS.saveAs}
          </button>
        )}
      </div>
    </div>
  );
}
