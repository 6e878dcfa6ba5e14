// Over 400 lines: the one bot form of every style and market (fields, live checks, preview); what a style changes in it is the style's (styles/form.ts, issue 42).
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import {
  ABOVE_MARKET_CONFIRM_LABEL,
  BELOW_MARKET_CONFIRM_LABEL,
  BOT_FIELD_LABELS,
  aboveMarket,
  aboveMarketMessage,
  botFieldErrors,
  ladderCostOf,
  marketFieldErrors,
  type BotFieldErrors,
  type GridNumbers,
} from '@gridrocket/bots/domain/bot-market.rules';
import {
  useCreateBotMutation,
  useEditBotMutation,
  useGetBalanceQuery,
  useGetCredentialsQuery,
  useGetExchangeModeQuery,
  useGetMarketRulesQuery,
  useGetPositionRiskQuery,
  useGetPriceQuery,
} from '../api/api';
import { Link } from 'react-router-dom';
import { describeError } from '../api/http';
import type { Bot, BotType, Exchange } from '../api/types';
import { Field, SelectField, NUMERIC_INPUT } from '../components/Field';
import { useAppDispatch, useUser } from '../store/hooks';
import { ui } from '../store/uiSlice';
import { leverageText, plain, priceForField, takeProfitPrice, usdt } from './format';
import { LadderPreview } from './LadderPreview';
import { EXCHANGES, PAIRS, pairLabel } from './pairs';
import { normalSymbol } from '../shims/shared';
import { BacktestPanel } from '../backtest/BacktestPanel';
import { rungPrice } from '@gridrocket/trading/grid';
import { AdvancedSettings, advancedBody, advancedConfig, advancedErrors, advancedFromBot, type AdvancedView } from './AdvancedSettings';
import { ModeBadge } from '../components/ModeBadge';
import { FormRefusal } from '../components/Feedback';
import { useRangeSetup } from './RangeSetup';
import { TemplateBar } from './TemplateBar';
import type { TemplateSettings } from './templatesApi';
import { CapacityPanel } from './CapacityPanel';
import { FuturesRisk, leverageOf as typedLeverage, liquidationStopErrors, type FuturesValues } from './FuturesRisk';
import type { CapacityQuery } from '../api/types';
import { BOT_NAME_MAX, botNameProblem } from '@gridrocket/bots/domain/bot-name.rules';
import { SaveReasons } from '../components/SaveReasons';
import { saveReasons, type FormProblem } from '../forms/saveReasons';
import { INVESTMENT_LABEL, useInvestment } from './InvestmentSizing';
import { botFormProblems } from './botFormProblems';
import { STYLES, directionOf, formOffers, styleOf, type DashboardStyle, type Direction, type StyleValues } from '../styles/registry';
import type { LadderChanges } from '../styles/form';

/** A market step as a trader reads it: 0.00001, not 1e-5. */
const stepText = (x: number) => Number(x.toPrecision(12)).toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 8 });

type Values = Record<'exchange' | 'symbol' | 'entryPrice' | 'numOfOrders' | 'orderSize' | 'interval' | 'takeProfit', string>;

function initialValues(bot?: Bot): Values {
  if (!bot) return { exchange: '', symbol: '', entryPrice: '', numOfOrders: '', orderSize: '', interval: '', takeProfit: '' };
  return {
    exchange: bot.exchange,
    symbol: bot.symbol,
    entryPrice: plain(bot.entryprice),
    numOfOrders: plain(bot.numoforders),
    orderSize: plain(bot.ordersize),
    interval: plain(bot.interval),
    // (a neutral grid created without one stores 0: an empty field, issue 40)
    takeProfit: bot.takeprofit > 0 ? plain(bot.takeprofit) : '',
  };
}

interface Props {
  botType: BotType;
  bot?: Bot;
  onCancel: () => void;
  onDone: () => void;
}

/**
 * Create and edit form of a bot (spec sections 2, 5, 8, 9). The checks are the server's own
 * (libs/bots/src/domain/bot-market.rules.ts): each field's rules, then the market's steps and
 * minimums, the take-profit above the fees and the cost within the available balance. Errors show
 * once a field was left or a save was tried.
 */
/** A typed pair as the venue lists it: no spaces, capitals. */
const upperPair = (v: string) => v.trim().toUpperCase();

/** Whether a price range can set the style's grid (RangeSetup.tsx). */
const ranged = (s: DashboardStyle) => s.ladderTools && s.form?.ladder?.range !== false;
/** The ladders a grid's orders make (a style's may be more than one, LadderChanges.ladders). */
const laddersOf = (changes: LadderChanges | undefined, g: GridNumbers) => changes?.ladders?.(g) ?? [g];
/** Each style's own values in the form (its fields, its stops), by style name: an edited bot's, else a new bot's. */
const styleValuesOf = (bot?: Bot): Record<string, StyleValues> => Object.fromEntries(STYLES.flatMap((s) => (s.form?.values ? [[s.name, s.form.values.of(bot)]] : [])));

export function BotForm({ botType, bot, onCancel, onDone }: Props) {
  const editing = Boolean(bot);
  const user = useUser()!;
  const dispatch = useAppDispatch();
  const [values, setValues] = useState<Values>(() => initialValues(bot));
  // Issue 40: the bot's name (optional; bot-name.rules.ts, the server's rule)
  const [name, setName] = useState(bot?.name ?? '');
  const nameProblem = botNameProblem(name);
  // Issue 14: the optional advanced settings (AdvancedSettings.tsx); empty = the spec's bot.
  const advancedBefore = useMemo(() => advancedFromBot(bot as AdvancedView | undefined), [bot]);
  const [advanced, setAdvanced] = useState(advancedBefore);
  // Issue 32 (futures only): long (the spec's ladder of buys), short (a ladder of sells above the entry) or a style's
  const [direction, setDirection] = useState<Direction>(() => directionOf(bot));
  // the styles' own values (their fields, their stops): kept while another style is chosen
  const valuesBefore = useMemo(() => styleValuesOf(bot), [bot]);
  const [styleValues, setStyleValues] = useState(valuesBefore);
  const advancedGrid = useMemo(() => {
    const c = advancedConfig(advanced);
    return { ...(c.spacing ? { spacing: c.spacing } : {}), ...(c.sizeScale !== undefined && Number.isFinite(c.sizeScale) && c.sizeScale >= 1 ? { sizeScale: c.sizeScale } : {}) };
  }, [advanced]);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [submitted, setSubmitted] = useState(false);
  const [createBot] = useCreateBotMutation();
  const [editBot] = useEditBotMutation();
  const futures = botType === 'Futures';
  const exchange = values.exchange as Exchange | '';
  // Issue 32, 42: a new spot bot is a ladder (the spec's) or a style the Style select offers, maybe with its own
  // fields; a futures bot's style is its direction's. An edited spot bot is a ladder (the server refuses other edits).
  const [spotStyle, setSpotStyle] = useState(styleOf(null).name);
  const chosen = futures || editing ? styleOf({ direction }) : (formOffers('spot').find((s) => s.name === spotStyle) ?? styleOf(null));
  const own = chosen.form?.fields;
  const changes = chosen.form?.ladder;
  const stopsForm = changes?.stops;
  const tpOwn = chosen.words.takeProfit;
  const offersRange = ranged(chosen);
  const spotNote = chosen.form?.offer.spot?.note;
  const GridPreview = changes?.Preview ?? LadderPreview;
  // the chosen style's own values (its fields or its stops; none for the ladder)
  const mine = useMemo(() => styleValues[chosen.name] ?? {}, [styleValues, chosen.name]);
  const setMine = (k: string, v: string) => setStyleValues((s) => ({ ...s, [chosen.name]: { ...s[chosen.name], [k]: v } }));

  const { data: balance, isFetching: balanceLoading } = useGetBalanceQuery(
    { botType, userId: user.uid, exchange: exchange as Exchange },
    { skip: !exchange },
  );
  // issue 39: a live or testnet account trades any pair its venue lists (typed, the catalogue as suggestions);
  // a paper account its catalogue (the select). The venue is asked only about a symbol written as a pair.
  const { data: mode } = useGetExchangeModeQuery();
  const anyPair = mode?.mode === 'live' || mode?.mode === 'testnet';
  const pairReady = Boolean(exchange && normalSymbol(values.symbol));
  const { data: price, isFetching: priceLoading } = useGetPriceQuery(
    { botType, symbol: values.symbol, exchange: exchange as Exchange },
    { skip: !pairReady },
  );
  const { data: positions } = useGetPositionRiskQuery({ userId: user.uid, exchange: exchange as Exchange }, { skip: !futures || !exchange });
  const leverage = useMemo(() => {
    if (!futures) return undefined;
    const p = positions?.find((x) => x.symbol === values.symbol || x.symbol?.replace(/[-/:]/g, '').startsWith(values.symbol));
    const n = Number(p?.leverage ?? bot?.leverage);
    return Number.isFinite(n) && n > 0 ? n : undefined;
  }, [futures, positions, values.symbol, bot?.leverage]);

  // the current price pre-fills the entry price once per pair (create), never over an edit
  const prefilledFor = useRef<string | null>(editing ? `${bot?.exchange}:${bot?.symbol}` : null);
  useEffect(() => {
    if (price === undefined || price === null) return;
    const key = `${values.exchange}:${values.symbol}`;
    if (prefilledFor.current === key) return;
    prefilledFor.current = key;
    setValues((v) => ({ ...v, entryPrice: priceForField(price) }));
  }, [price, values.exchange, values.symbol]);

  const { data: credentials } = useGetCredentialsQuery(user.uid);
  const noKey = Boolean(exchange && credentials && !credentials.some((c) => c.exchange === exchange));
  const { data: rules } = useGetMarketRulesQuery(
    { botType, symbol: values.symbol, exchange: exchange as Exchange },
    { skip: !pairReady },
  );
  // Issue 32: the grid set by a price range (RangeSetup.tsx) writes these same ladder fields
  const range = useRangeSetup({
    idp: editing ? `edit-${bot!.id}` : `new-${botType.toLowerCase()}`,
    priceStep: rules?.priceStep,
    direction: futures && direction === 'short' ? 'short' : 'long',
    ladder: { entryPrice: values.entryPrice, numOfOrders: values.numOfOrders, interval: values.interval, spacing: advanced.spacing },
    onLadder: (l) => {
      setValues((v) => ({ ...v, entryPrice: String(l.entryPrice), numOfOrders: String(l.numOfOrders), interval: String(l.interval) }));
      setAdvanced((a) => ({ ...a, spacing: l.spacing === 'absolute' && a.spacing === '' ? '' : l.spacing }));
    },
  });
  /** A style chosen in a select: one a price range cannot set is set by its fields (its entry price typed). */
  const choose = (next: DashboardStyle) => {
    if (!ranged(next)) range.setMode('ladder');
    return next;
  };
  /** Issue 32: a template's or a copied bot's settings fill the form; today's market checks them like typed values. */
  const applySettings = (t: TemplateSettings) => {
    prefilledFor.current = `${t.exchange}:${t.symbol}`; // the template's entry price stands (the warnings say where it is against today's price)
    range.setMode('ladder');
    setValues({ exchange: t.exchange, symbol: t.symbol, entryPrice: plain(t.entryPrice), numOfOrders: plain(t.numOfOrders), orderSize: plain(t.orderSize), interval: plain(t.interval), takeProfit: t.takeProfit !== undefined && t.takeProfit > 0 ? plain(t.takeProfit) : '' });
    setAdvanced(advancedFromBot({ spacing: t.spacing, sizescale: t.sizeScale, stoplosspercent: t.stopLossPercent, stoplossprice: t.stopLossPrice, trailingdeviation: t.trailingDeviation, reanchor: t.reanchor, reanchorlimit: t.reanchorLimit, traildownlimit: t.trailDownLimit }));
    // a short or another direction's template or copy is one too, with that style's values
    setDirection(directionOf(t));
    setStyleValues((s) => ({ ...s, ...Object.fromEntries(STYLES.flatMap((st) => (st.form?.values?.fromTemplate ? [[st.name, st.form.values.fromTemplate(t)]] : []))) }));
    setTouched({ exchange: true, symbol: true, entryPrice: true, numOfOrders: true, orderSize: true, interval: true, takeProfit: true });
  };
  const fieldErrors = useMemo(
    // (the direction decides what is required: a neutral grid has no take profit, issue 40)
    () => botFieldErrors({ ...values, ...advancedGrid, leverage: undefined, ...(futures && direction !== 'long' ? { direction } : {}) }, editing ? 'edit' : 'create', botType),
    [values, advancedGrid, editing, botType, futures, direction],
  );
  // (a short grid's stop-loss price lies above the entry: its checks are the short ones, issue 32)
  const advErrors = useMemo(() => advancedErrors(advanced, futures && direction === 'short' ? { ...values, direction } : values, botType), [advanced, values, botType, futures, direction]);
  // Issue 40 (FuturesRisk.tsx): the bot's own leverage and margin mode, chosen here; empty leverage: the account's
  const [futuresRisk, setFuturesRisk] = useState<FuturesValues>(() => ({ leverage: bot?.leverage ? String(bot.leverage) : '', marginMode: (bot as { marginmode?: 'isolated' | 'cross' } | undefined)?.marginmode ?? 'isolated' }));
  const chosenLeverage = futures ? (typedLeverage(futuresRisk) ?? leverage) : undefined;
  const leverageOf = futures ? (chosenLeverage ?? 1) : 1;
  /** The ladder's numbers, once the fields that make the ladder are valid on their own (the cost needs no take profit). */
  const ladder = useMemo(() => {
    const keys = ['entryPrice', 'numOfOrders', 'orderSize', 'interval'] as const;
    if (keys.some((k) => fieldErrors[k])) return null;
    return {
      entryPrice: Number(values.entryPrice),
      numOfOrders: Number(values.numOfOrders),
      orderSize: Number(values.orderSize),
      interval: Number(values.interval),
      leverage: leverageOf,
      // (a grid with its own stops has equal steps and sizes: the advanced spacing and scale are not its)
      ...(stopsForm ? {} : advancedGrid),
      ...(futures && direction === 'short' ? { direction: 'short' as const } : {}),
    };
  }, [fieldErrors, values.entryPrice, values.numOfOrders, values.orderSize, values.interval, leverageOf, advancedGrid, futures, direction, stopsForm]);
  /** Every number, once every field is valid on its own. */
  const grid: GridNumbers | null = useMemo(
    () => (ladder && !fieldErrors.takeProfit ? { ...ladder, takeProfit: tpOwn ? Number(values.takeProfit) : 0 } : null),
    [ladder, fieldErrors.takeProfit, values.takeProfit, tpOwn],
  );
  const available = balance ? balance.available : null;
  const errors: BotFieldErrors = useMemo(() => {
    const limits = rules ?? { priceStep: 0, amountStep: 0, minNotional: 0 };
    // (the venue's maximums name the venue and coin, issue 39; its price band is the server's, after the entry's warning)
    const context = { exchange: values.exchange || undefined, symbol: values.symbol || undefined };
    const market = !grid ? {} : changes?.marketErrors ? changes.marketErrors(grid, limits, available, context) : marketFieldErrors(grid, limits, available, context);
    return { ...market, ...fieldErrors };
  }, [rules, available, fieldErrors, changes, grid, values.exchange, values.symbol]);
  // Issue 29 finding 3: an entry more than 0.5 % above the current price buys rungs at once; Save needs a confirmation.
  // (of each of its ladders: a two-sided grid's buys above or its sells below the market would fill at once)
  const above = useMemo(() => {
    if (!ladder || errors.entryPrice) return null;
    for (const h of laddersOf(changes, { ...ladder, takeProfit: 1 })) {
      const a = aboveMarket(h, price, rules?.takerFee ?? 0);
      if (a) return a;
    }
    return null;
  }, [ladder, errors.entryPrice, price, rules?.takerFee, changes]);
  const aboveKey = above ? `${values.entryPrice}|${above.rungs}|${above.amount}` : null;
  const [confirmedAbove, setConfirmedAbove] = useState<string | null>(null);
  const needsConfirm = above !== null && confirmedAbove !== aboveKey;
  // issue 40: a stop-loss beyond the liquidation price is the server's refusal (bot-futures.rules.ts), shown on its field
  const futuresGrid = useMemo(() => ({ exchange, symbol: values.symbol, direction: futures ? direction : 'long' as const, numOfOrders: values.numOfOrders, orderSize: values.orderSize, interval: values.interval, entryPrice: values.entryPrice, takeProfit: values.takeProfit, ...(stopsForm ? stopsForm.grid(mine) : { stopLossPrice: advanced.stopLossPrice, stopLossPercent: advanced.stopLossPercent, ...advancedGrid }) }), [exchange, values, futures, direction, stopsForm, mine, advanced, advancedGrid]);
  const liqErrors = useMemo(() => (futures ? liquidationStopErrors(futuresGrid, { ...futuresRisk, leverage: String(leverageOf) }, rules) : {}), [futures, futuresGrid, futuresRisk, leverageOf, rules]);
  const stopErrors = useMemo(() => (stopsForm ? stopsForm.errors(mine, values, liqErrors) : {}), [stopsForm, mine, values, liqErrors]);
  const advLiqErrors = stopsForm ? {} : { ...(liqErrors.stopLossPrice && !advErrors.stopLossPrice ? { stopLossPrice: liqErrors.stopLossPrice } : {}), ...(liqErrors.stopLossPercent && !advErrors.stopLossPercent ? { stopLossPercent: liqErrors.stopLossPercent } : {}) };
  const invalid = Object.values(errors).some(Boolean) || (!stopsForm && Object.values({ ...advErrors, ...advLiqErrors }).some(Boolean)) || Object.values(stopErrors).some(Boolean) || needsConfirm || (offersRange && range.invalid) || (futures && futuresRisk.leverage.trim() !== '' && typedLeverage(futuresRisk) === null);
  const lowest = ladder ? rungPrice(ladder, Math.floor(ladder.numOfOrders) - 1) : 0;
  const cost = ladder && lowest > 0 ? laddersOf(changes, { ...ladder, takeProfit: 1 }).reduce((t, h) => t + ladderCostOf(h), 0) : null;
  // a style's own fields with the market's (issue 32: the infinity grid's, its checks the server's)
  const ownValues = useMemo(() => ({ ...mine, entryPrice: values.entryPrice, exchange: values.exchange, symbol: values.symbol }), [mine, values.entryPrice, values.exchange, values.symbol]);
  const ownErrors = useMemo(() => (own ? own.errors(ownValues, rules) : {}), [own, ownValues, rules]);
  const ownInvalid = Object.values(ownErrors).some(Boolean);
  // Issue 40: the orders sized by a total investment (InvestmentSizing.tsx, the server's sizing)
  const invest = useInvestment({
    idp: editing ? `edit-${bot!.id}` : `new-${botType.toLowerCase()}`,
    stored: bot?.investment,
    ladder: own || fieldErrors.entryPrice || fieldErrors.numOfOrders || fieldErrors.interval ? null : { numOfOrders: Number(values.numOfOrders), interval: Number(values.interval), entryPrice: Number(values.entryPrice), leverage: leverageOf, ...(stopsForm ? {} : advancedGrid), ...(futures && direction !== 'long' ? { direction } : {}) },
    own: own ? own.sizing(ownValues, ownErrors) : null,
    rules,
    base: values.symbol.replace(/USDT$|USDC$/, ''),
    futures,
    current: own ? mine[own.sized] : values.orderSize,
    onSized: (size) => (own ? setMine(own.sized, size) : setValues((v) => ({ ...v, orderSize: size }))),
  });
  // Issue 39: what the key can carry (CapacityPanel): asked once the pair and the grid size are set
  const capacityQuery: CapacityQuery | null = useMemo(() => {
    if (!exchange || !values.symbol) return null;
    const base = { exchange, symbol: values.symbol, botType, ...(editing ? { id: bot!.id } : {}) };
    if (own) return { ...base, ...own.capacity(mine, ownErrors) };
    if (fieldErrors.numOfOrders || values.numOfOrders.trim() === '') return null;
    return { ...base, numOfOrders: values.numOfOrders.trim(), ...(futures ? { direction } : {}) };
  }, [exchange, values.symbol, values.numOfOrders, botType, editing, bot, own, mine, ownErrors, fieldErrors.numOfOrders, futures, direction]);
  const shown = (k: keyof Values) => (submitted || touched[k] ? ((own ? ownErrors[k] : errors[k]) ?? null) : null);
  const shownOwn = (k: string) => (submitted || touched[k] ? (ownErrors[k] ?? null) : null);

  const set = (k: keyof Values, v: string) => setValues((s) => ({ ...s, [k]: v }));
  const blur = (k: string) => () => setTouched((t) => ({ ...t, [k]: true }));
  /** The market fields' binding: a pick is set (written as `norm` says) and counts as touched at once. */
  const pick = (k: 'exchange' | 'symbol', norm: (v: string) => string = (v) => v) => ({
    name: k,
    value: values[k],
    onValue: (v: string) => {
      set(k, norm(v));
      setTouched((t) => ({ ...t, [k]: true }));
    },
    error: shown(k),
  });

  const numbersOf = () => ({
      numOfOrders: Number(values.numOfOrders),
      orderSize: Number(values.orderSize),
      interval: Number(values.interval),
      entryPrice: Number(values.entryPrice),
      // (a grid without a take profit of its own needs none: an empty one is left out, issue 40)
      ...(values.takeProfit.trim() !== '' ? { takeProfit: Number(values.takeProfit) } : {}),
      ...(futures && chosenLeverage ? { leverage: chosenLeverage } : {}),
      ...(futures ? { marginMode: futuresRisk.marginMode } : {}),
      ...(stopsForm ? stopsForm.body(mine, valuesBefore[chosen.name] ?? {}) : advancedBody(advanced, advancedBefore)),
      ...(above ? { confirmAboveMarket: true } : {}),
      // sent when not long, or when an edit turns such a bot back to long (absent keeps the bot's)
      ...(futures && (direction !== 'long' || (bot?.direction !== undefined && bot.direction !== 'long')) ? { direction } : {}),
    });
  /** The form's settings as a create body (what a template keeps), or null while the form is not valid. */
  const currentSettings = () => {
    if (invalid) return null;
    const { confirmAboveMarket: _confirm, ...numbers } = numbersOf() as Record<string, unknown>;
    return { exchange: values.exchange, symbol: bot?.symbol ?? values.symbol, botType, ...numbers };
  };

  /** Issue 40: the name as the body sends it: set, or '' to remove the one an edited bot has. */
  const nameBody = name.trim() !== '' ? { name: name.trim() } : bot?.name ? { name: '' } : {};

  /** Ends a save the spinner covered: the server's refusal as an error toast (false), or `success` (true). */
  const answered = (res: object, failure: string, success: string) => {
    dispatch(ui.hideSpinner());
    if ('error' in res && res.error) {
      dispatch(ui.toast('error', failure, describeError(res.error)));
      return false;
    }
    dispatch(ui.toast('success', success));
    return true;
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (own) {
      if (ownInvalid || nameProblem) return;
      dispatch(ui.showSpinner());
      const fields = own.body(ownValues);
      if (invest.active) delete fields[own.sized]; // the server sizes it from the investment
      const res = await createBot({ userId: user.uid, exchange: values.exchange as Exchange, symbol: values.symbol, ...fields, ...invest.body(), ...nameBody } as Parameters<typeof createBot>[0]);
      if (answered(res, 'Error creating bot!', 'Bot successfully added!')) onDone();
      return;
    }
    if (invalid) return;
    const { orderSize, ...rest } = numbersOf();
    // issue 40: by investment, the server sizes the orders itself (from the same rules)
    const numbers = { ...rest, ...(invest.active ? invest.body() : { orderSize }), ...nameBody };
    dispatch(ui.showSpinner());
    if (bot) {
      const res = await editBot({ id: bot.id, userId: user.uid, body: { exchange: values.exchange as Exchange, ...numbers } });
      if (!answered(res, 'Error editing bot!', 'Bot successfully edited!')) return;
    } else {
      const res = await createBot({
        userId: user.uid,
        exchange: values.exchange as Exchange,
        symbol: values.symbol,
        ...numbers,
        status: false,
        botType,
        pid: -1,
      });
      if (!answered(res, 'Error creating bot!', 'Bot successfully added!')) return;
    }
    onDone();
  };

  const short = futures && direction === 'short';
  const tpPrice = errors.takeProfit || errors.entryPrice ? null : takeProfitPrice(values.entryPrice, values.takeProfit, short ? 'short' : 'long');
  const tpHint = (
    <>
      {short ? 'Bought back at the average entry price − this %' : 'Sold at the average entry price + this %'}
      {tpPrice !== null ? <span className="field__hint-extra"> (after the first fill: {usdt(tpPrice)} USDT)</span> : null}
    </>
  );

  const idp = editing ? `edit-${bot!.id}` : `new-${botType.toLowerCase()}`;
  // Issue 40, point 7: a disabled Save says why, field by field
  const blocked = (own ? ownInvalid : invalid) || nameProblem !== null;
  // what a style changes in the list of problems: its own fields, no take profit, its stops
  const styleProblems = {
    ownFields: own ? { labels: own.labels, errors: ownErrors, sized: own.sized } : null,
    takeProfit: tpOwn,
    stopErrors: stopsForm ? stopErrors : null,
  };
  const problems = botFormProblems({
    nameProblem, ...styleProblems, errors, advErrors: { ...advErrors, ...advLiqErrors }, rangeProblems: range.problems,
    leverageProblem: futures && futuresRisk.leverage.trim() !== '' && typedLeverage(futuresRisk) === null ? 'Leverage must be a whole number from 1 to 125' : null,
    confirm: needsConfirm && above ? (above.direction === 'short' ? BELOW_MARKET_CONFIRM_LABEL : ABOVE_MARKET_CONFIRM_LABEL) : null,
    investment: invest,
  });
  const reasons = blocked ? saveReasons(problems) : [];

  return (
    <form noValidate onSubmit={submit} aria-label={editing ? 'Edit bot' : 'Create new bot'} className="bot-form">
      {noKey ? (
        <p className="form-notice" role="note" data-testid="no-key-notice">
          You have no API key for {exchange} yet: you can save this bot, but it starts only once you{' '}
          <Link to="/security">add a key on the Security page</Link> (in paper mode too: the key opens the paper exchange).
        </p>
      ) : null}
      {chosen.ladderTools ? <TemplateBar idp={idp} botType={botType} editing={editing} onApply={applySettings} current={currentSettings} blockers={() => saveReasons(botFormProblems({ nameProblem: null, ...styleProblems, errors, advErrors: { ...advErrors, ...advLiqErrors }, rangeProblems: range.problems, leverageProblem: null, confirm: null, investment: invest }))} /> : null}
      <div className="bot-form__layout">
      <div className="bot-form__main">
      <div className="bot-form__grid">
        <Field id={`${idp}-name`} className="bot-form__name" label="Name (optional)" name="name" autoComplete="off" maxLength={BOT_NAME_MAX + 20} placeholder={`e.g. ${values.symbol ? pairLabel(values.symbol) : 'BTC/USDT'} night grid`} value={name} onValue={setName} onBlur={blur('name' as keyof Values)} error={(submitted || touched.name) && nameProblem ? nameProblem.replace(/^name/, 'Name') : null} hint="Shown on the card, the bot page, the lists, the history and the alerts" />
        <SelectField
          id={`${idp}-exchange`}
          label="Exchange"
          {...pick('exchange')}
          placeholder="Select Exchange"
          options={EXCHANGES.map((x) => ({ value: x, label: x }))}
        />
        <div className="readout" aria-live="polite">
          <span className="readout__label">
            Balance <ModeBadge exchange={exchange || undefined} />
          </span>
          <span className="readout__value" data-testid="balance">
            {!exchange ? '—' : balanceLoading ? '…' : balance ? `${usdt(balance.balance)} USDT` : 'unavailable'}
          </span>
          {balance && balance.available !== balance.balance ? (
            <span className="readout__sub">available {usdt(balance.available)} USDT</span>
          ) : null}
        </div>
        {anyPair ? (
          <>
            <Field
              id={`${idp}-symbol`}
              label="Pair"
              {...pick('symbol', upperPair)}
              placeholder="e.g. BTCUSDT"
              hint="Any pair your exchange lists"
              autoComplete="off"
              list={`${idp}-pairs`}
              disabled={editing}
            />
            <datalist id={`${idp}-pairs`}>
              {PAIRS.map((p) => (
                <option key={p} value={p} />
              ))}
            </datalist>
          </>
        ) : (
          <SelectField
            id={`${idp}-symbol`}
            label="Pair"
            {...pick('symbol')}
            placeholder="Select pair"
            options={PAIRS.map((p) => ({ value: p, label: pairLabel(p) }))}
            disabled={editing}
          />
        )}
        <div className="readout" aria-live="polite">
          <span className="readout__label">Current price</span>
          <span className="readout__value" data-testid="current-price">
            {!exchange || !values.symbol ? '—' : priceLoading ? '…' : price ? `${usdt(price)} USDT` : 'unavailable'}
          </span>
          {price && editing ? (
            <button type="button" className="link link--small" onClick={() => set('entryPrice', priceForField(price))}>
              Use as entry price
            </button>
          ) : null}
        </div>
        {!futures && !editing ? (
          <SelectField
            id={`${idp}-style`}
            label="Style"
            name="style"
            value={spotStyle}
            onValue={(v) => setSpotStyle(choose(formOffers('spot').find((s) => s.name === v) ?? styleOf(null)).name)}
            options={formOffers('spot').map((s) => ({ value: s.name, label: s.form!.offer.spot!.label }))}
          />
        ) : null}
        {/* (beside the Style select, so the fields below keep their pairs in the two columns) */}
        {!futures && !editing && spotNote ? (
          <p className="readout readout__sub" data-testid={spotNote.testId}>
            {spotNote.text}
          </p>
        ) : null}
        {offersRange ? range.switcher : null}
        {offersRange ? range.fields(submitted) : null}
        <Field id={`${idp}-entry`} readOnly={offersRange && range.mode === 'range'} label="Entry Price" name="entryPrice" {...NUMERIC_INPUT} maxLength={10} value={values.entryPrice} onValue={(v) => set('entryPrice', v)} onBlur={blur('entryPrice')} error={shown('entryPrice')} hint={chosen.form?.entryHint} />
        {own ? (
          <own.Section idp={idp} values={mine} onField={setMine} onBlur={blur} shown={shownOwn} invest={invest} submitted={submitted} />
        ) : (
          <>
        <Field id={`${idp}-orders`} readOnly={offersRange && range.mode === 'range'} label="Grid size" name="numOfOrders" inputMode="numeric" autoComplete="off" maxLength={2} value={values.numOfOrders} onValue={(v) => set('numOfOrders', v)} onBlur={blur('numOfOrders')} error={shown('numOfOrders')} hint={changes?.hints?.numOfOrders ?? `Number of ${futures && direction === 'short' ? 'sell' : 'buy'} orders`} />
        {invest.switcher}
        {invest.field(submitted)}
        <Field id={`${idp}-size`} readOnly={invest.active} label="Order size" name="orderSize" {...NUMERIC_INPUT} maxLength={12} value={values.orderSize} onValue={(v) => set('orderSize', v)} onBlur={blur('orderSize')} error={invest.active ? null : shown('orderSize')} hint={invest.active ? 'Sized by the investment' : rules && rules.amountStep > 0 ? `Coins per order, in steps of ${stepText(rules.amountStep)}` : 'Coins per order'} />
        <Field id={`${idp}-interval`} readOnly={range.mode === 'range'} label="Price interval" name="interval" {...NUMERIC_INPUT} maxLength={10} value={values.interval} onValue={(v) => set('interval', v)} onBlur={blur('interval')} error={shown('interval')} hint={changes?.hints?.interval ?? (advanced.spacing === 'percent' ? `% ${futures && direction === 'short' ? 'above' : 'below'} the previous order (percent spacing)` : 'USDT between orders')} />
        {/* a grid that answers each fill has no take profit of its own (issue 40): the field is not its */}
        {tpOwn ? <Field id={`${idp}-tp`} label="Take profit" name="takeProfit" {...NUMERIC_INPUT} maxLength={10} value={values.takeProfit} onValue={(v) => set('takeProfit', v)} onBlur={blur('takeProfit')} error={shown('takeProfit')} unit="%" hint={tpHint} /> : null}
          </>
        )}
        {futures ? (
          <SelectField
            id={`${idp}-direction`}
            label="Direction"
            name="direction"
            value={direction}
            onValue={(v) => setDirection(choose(formOffers('futures').find((s) => s.words.direction === v) ?? styleOf(null)).words.direction)}
            options={formOffers('futures').map((s) => ({ value: s.words.direction, label: s.form!.offer.futures!.label }))}
          />
        ) : null}
        {futures ? (
          <div className="readout">
            <span className="readout__label">Leverage</span>
            <span className="readout__value" data-testid="leverage">
              {leverageText(leverage) ?? '—'}
            </span>
          </div>
        ) : null}
      </div>

      {above && !own ? (
        <div className="form-warning" role="alert" data-testid="above-market-warning">
          <p>{aboveMarketMessage(above, values.symbol.replace(/USDT$|USDC$/, ''))}.</p>
          <label className="checkbox">
            <input type="checkbox" name="confirmAboveMarket" checked={!needsConfirm} onChange={(e) => setConfirmedAbove(e.target.checked ? aboveKey : null)} />{' '}
            {above.direction === 'short' ? BELOW_MARKET_CONFIRM_LABEL : ABOVE_MARKET_CONFIRM_LABEL}
          </label>
        </div>
      ) : null}
      {own ? null : <div className="cost" aria-live="polite">
        <div>
          <span className="cost__label">Total cost</span>
          <span className="cost__value" data-testid="total-cost">
            {cost === null ? '—' : `${usdt(cost)} USDT`}
          </span>
        </div>
        <span className="cost__hint">{futures ? 'Minimum: 60 USDT' : 'Minimum: 20 USDT'}</span>
      </div>}
      {futures ? <FuturesRisk values={futuresRisk} onChange={setFuturesRisk} grid={futuresGrid} rules={rules} accountLeverage={leverage} editing={editing} /> : null}
      {own ? null : stopsForm ? (
        <stopsForm.Section idp={idp} values={mine} onField={setMine} errors={stopErrors} />
      ) : (
      <AdvancedSettings
        values={advanced}
        onChange={setAdvanced}
        errors={{ ...advErrors, ...advLiqErrors }}
        grid={{ botType, exchange, symbol: values.symbol, numOfOrders: values.numOfOrders, orderSize: values.orderSize, interval: values.interval, entryPrice: values.entryPrice, takeProfit: values.takeProfit, leverage: chosenLeverage, ...(futures && direction === "short" ? { direction } : {}) }}
        defaultOpen={Object.values(advancedBefore).some((v) => v !== '')}
      />
      )}
      </div>
      <aside className="bot-form__side" aria-label="Preview">
        {own ? <own.Preview values={ownValues} errors={ownErrors} rules={rules} /> : <GridPreview grid={grid} available={available} />}
        <CapacityPanel query={capacityQuery} />
        {!chosen.ladderTools ? null : <BacktestPanel
          botType={botType}
          values={values}
          leverage={chosenLeverage}
          direction={direction}
          disabled={invalid}
          onApply={(p) => setValues((v) => ({ ...v, interval: String(p.interval), numOfOrders: String(p.numOfOrders), takeProfit: p.takeProfit === null ? v.takeProfit : String(p.takeProfit) }))}
        />}
      </aside>
      </div>
      {(own ? ownInvalid : invalid) && (submitted || (Object.keys(values) as (keyof Values)[]).some((k) => shown(k)) || (own && Object.keys(mine).some((k) => shownOwn(k)))) ? (
        <FormRefusal message="Missing form values!" />
      ) : null}
      <div className="actions bot-form__actions">
        {/* (in the sticky bar, beside the button it explains: issue 40) */}
        <SaveReasons id={`${idp}-save-reasons`} reasons={reasons} />
        <button type="button" className="btn btn--ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn--primary" disabled={blocked} aria-describedby={reasons.length ? `${idp}-save-reasons` : undefined}>
          Save
        </button>
      </div>
    </form>
  );
}
