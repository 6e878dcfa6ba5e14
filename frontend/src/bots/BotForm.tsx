// Over 400 lines: the one bot form of every style and market (fields, live checks, preview); to split when the styles move behind one interface (issue 42).
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import {
  ABOVE_MARKET_CONFIRM_LABEL,
  BELOW_MARKET_CONFIRM_LABEL,
  BOT_FIELD_LABELS,
  aboveMarket,
  aboveMarketMessage,
  botFieldErrors,
  gridHalves,
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
import { NeutralPreview } from '../styles/neutral/Preview';
import { NeutralStops, neutralStopErrors, neutralStopsBody } from '../styles/neutral/Stops';
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
import { EMPTY_INFINITY, INFINITY_FIELD_LABELS, infinityErrors, infinityNumbers, infinityPreview, type InfinityErrors, type InfinityField } from '../styles/infinity/form';
import { InfinityPreview } from '../styles/infinity/Preview';
import { InfinityFields } from '../styles/infinity/FormSection';
import { infinitySizing } from '../styles/infinity/sizing';
import { CapacityPanel } from './CapacityPanel';
import { FuturesRisk, leverageOf as typedLeverage, liquidationStopErrors, type FuturesValues } from './FuturesRisk';
import type { CapacityQuery } from '../api/types';
import { BOT_NAME_MAX, botNameProblem } from '@gridrocket/bots/domain/bot-name.rules';
import { SaveReasons } from '../components/SaveReasons';
import { saveReasons, type FormProblem } from '../forms/saveReasons';
import { INVESTMENT_LABEL, useInvestment } from './InvestmentSizing';
import { botFormProblems } from './botFormProblems';

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
  // Issue 32 (futures only): long (the spec's ladder of buys) or short (a ladder of sells above the entry)
  const [direction, setDirection] = useState<'long' | 'short' | 'neutral'>(bot?.direction === 'short' || bot?.direction === 'neutral' ? bot.direction : 'long');
  // a neutral grid's stops (issue 32): below its lowest buy, above its highest sell (its only advanced settings)
  const stopsBefore = useMemo(() => ({ below: bot?.stoplossprice !== undefined ? String(bot.stoplossprice) : '', above: bot?.stoplosspriceabove !== undefined ? String(bot.stoplosspriceabove) : '' }), [bot]);
  const [stops, setStops] = useState(stopsBefore);
  const advancedGrid = useMemo(() => {
    const c = advancedConfig(advanced);
    return { ...(c.spacing ? { spacing: c.spacing } : {}), ...(c.sizeScale !== undefined && Number.isFinite(c.sizeScale) && c.sizeScale >= 1 ? { sizeScale: c.sizeScale } : {}) };
  }, [advanced]);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [submitted, setSubmitted] = useState(false);
  const [createBot] = useCreateBotMutation();
  const [editBot] = useEditBotMutation();
  const futures = botType === 'Futures';
  const neutral = futures && direction === 'neutral';
  const exchange = values.exchange as Exchange | '';
  // Issue 32 (docs/infinity.md): a new SPOT bot is a ladder (the spec's) or an infinity grid, with its own
  // fields (infinity.ts: the server's messages); an infinity bot is not edited (the server refuses it)
  const [style, setStyle] = useState<'ladder' | 'infinity'>('ladder');
  const infinity = !futures && !editing && style === 'infinity';
  const [inf, setInf] = useState(EMPTY_INFINITY);

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
  /** Issue 32: a template's or a copied bot's settings fill the form; today's market checks them like typed values. */
  const applySettings = (t: TemplateSettings) => {
    prefilledFor.current = `${t.exchange}:${t.symbol}`; // the template's entry price stands (the warnings say where it is against today's price)
    range.setMode('ladder');
    setValues({ exchange: t.exchange, symbol: t.symbol, entryPrice: plain(t.entryPrice), numOfOrders: plain(t.numOfOrders), orderSize: plain(t.orderSize), interval: plain(t.interval), takeProfit: t.takeProfit !== undefined && t.takeProfit > 0 ? plain(t.takeProfit) : '' });
    setAdvanced(advancedFromBot({ spacing: t.spacing, sizescale: t.sizeScale, stoplosspercent: t.stopLossPercent, stoplossprice: t.stopLossPrice, trailingdeviation: t.trailingDeviation, reanchor: t.reanchor, reanchorlimit: t.reanchorLimit, traildownlimit: t.trailDownLimit }));
    // a short or neutral bot's template or copy is one too
    setDirection(t.direction === 'short' || t.direction === 'neutral' ? t.direction : 'long');
    setStops({ below: t.direction === 'neutral' && t.stopLossPrice !== undefined ? plain(t.stopLossPrice) : '', above: t.stopLossPriceAbove !== undefined ? plain(t.stopLossPriceAbove) : '' });
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
      // (a neutral grid has equal steps and sizes: the advanced spacing and scale are not its)
      ...(neutral ? {} : advancedGrid),
      ...(futures && direction === 'short' ? { direction: 'short' as const } : {}),
    };
  }, [fieldErrors, values.entryPrice, values.numOfOrders, values.orderSize, values.interval, leverageOf, advancedGrid, futures, direction, neutral]);
  /** Every number, once every field is valid on its own. */
  const grid: GridNumbers | null = useMemo(
    () => (ladder && !fieldErrors.takeProfit ? { ...ladder, takeProfit: neutral ? 0 : Number(values.takeProfit) } : null),
    [ladder, fieldErrors.takeProfit, values.takeProfit, neutral],
  );
  const available = balance ? balance.available : null;
  // a neutral grid (issue 32) is checked as its two halves, the buys below and the sells above the reference (as the server does)
  const halves = useMemo(() => (grid ? (neutral ? gridHalves({ ...grid, direction: 'neutral' as const }) : [grid]) : []), [grid, neutral]);
  const errors: BotFieldErrors = useMemo(() => {
    // (a neutral grid's take profit is not its own: not held to the fees, issue 40, as the server's market check)
    const limits = rules ? (neutral ? { ...rules, makerFee: undefined } : rules) : { priceStep: 0, amountStep: 0, minNotional: 0 };
    // (the venue's maximums name the venue and coin, issue 39; its price band is the server's, after the entry's warning)
    const context = { exchange: values.exchange || undefined, symbol: values.symbol || undefined };
    const market = halves.map((h) => marketFieldErrors(h, limits, neutral ? null : available, context)).reduceRight((a, b) => ({ ...a, ...b }), {} as BotFieldErrors);
    if (neutral && grid && !market.entryPrice) {
      const step = limits.priceStep;
      const k = step > 0 ? grid.entryPrice / step : 0;
      if (step > 0 && Math.abs(k - Math.round(k)) > 1e-9 * Math.max(1, k)) market.entryPrice = `Entry Price must be a multiple of ${step} (the market's price step)`;
    }
    if (neutral && available !== null && available !== undefined && halves.length === 2 && !market.numOfOrders) {
      const both = halves.reduce((t, h) => t + ladderCostOf(h), 0);
      if (both > available) market.numOfOrders = `The grid's buys and sells cost ${Number(both.toPrecision(12))} USDT, more than the ${usdt(available)} USDT available`;
    }
    return { ...market, ...fieldErrors };
  }, [halves, rules, available, fieldErrors, neutral, grid]);
  // Issue 29 finding 3: an entry more than 0.5 % above the current price buys rungs at once; Save needs a confirmation.
  // (neutral: its buys above or its sells below the market would fill at once)
  const above = useMemo(() => {
    if (!ladder || errors.entryPrice) return null;
    if (!neutral) return aboveMarket(ladder, price, rules?.takerFee ?? 0);
    for (const h of gridHalves({ ...ladder, direction: 'neutral' as const })) {
      const a = aboveMarket(h, price, rules?.takerFee ?? 0);
      if (a) return a;
    }
    return null;
  }, [ladder, errors.entryPrice, price, rules?.takerFee, neutral]);
  const aboveKey = above ? `${values.entryPrice}|${above.rungs}|${above.amount}` : null;
  const [confirmedAbove, setConfirmedAbove] = useState<string | null>(null);
  const needsConfirm = above !== null && confirmedAbove !== aboveKey;
  // issue 40: a stop-loss beyond the liquidation price is the server's refusal (bot-futures.rules.ts), shown on its field
  const futuresGrid = useMemo(() => ({ exchange, symbol: values.symbol, direction: futures ? direction : 'long' as const, numOfOrders: values.numOfOrders, orderSize: values.orderSize, interval: values.interval, entryPrice: values.entryPrice, takeProfit: values.takeProfit, ...(neutral ? { stopLossPrice: stops.below, stopLossPriceAbove: stops.above } : { stopLossPrice: advanced.stopLossPrice, stopLossPercent: advanced.stopLossPercent, ...advancedGrid }) }), [exchange, values, futures, direction, neutral, stops, advanced, advancedGrid]);
  const liqErrors = useMemo(() => (futures ? liquidationStopErrors(futuresGrid, { ...futuresRisk, leverage: String(leverageOf) }, rules) : {}), [futures, futuresGrid, futuresRisk, leverageOf, rules]);
  const stopErrors = useMemo(() => (neutral ? { ...neutralStopErrors(stops, values), ...(liqErrors.stopLossPrice ? { below: liqErrors.stopLossPrice } : {}), ...(liqErrors.stopLossPriceAbove ? { above: liqErrors.stopLossPriceAbove } : {}) } : {}), [neutral, stops, values, liqErrors]);
  const advLiqErrors = neutral ? {} : { ...(liqErrors.stopLossPrice && !advErrors.stopLossPrice ? { stopLossPrice: liqErrors.stopLossPrice } : {}), ...(liqErrors.stopLossPercent && !advErrors.stopLossPercent ? { stopLossPercent: liqErrors.stopLossPercent } : {}) };
  const invalid = Object.values(errors).some(Boolean) || (!neutral && Object.values({ ...advErrors, ...advLiqErrors }).some(Boolean)) || Object.values(stopErrors).some(Boolean) || needsConfirm || (!neutral && range.invalid) || (futures && futuresRisk.leverage.trim() !== '' && typedLeverage(futuresRisk) === null);
  const lowest = ladder ? rungPrice(ladder, Math.floor(ladder.numOfOrders) - 1) : 0;
  const cost = ladder && lowest > 0 ? (neutral ? gridHalves({ ...ladder, takeProfit: 1, direction: 'neutral' as const }).reduce((t, h) => t + ladderCostOf(h), 0) : ladderCostOf({ ...ladder, takeProfit: 1 })) : null;
  const infValues = useMemo(() => ({ ...inf, entryPrice: values.entryPrice }), [inf, values.entryPrice]);
  const infErrors: InfinityErrors = useMemo(
    () => (infinity ? infinityErrors({ ...infValues, exchange: values.exchange, symbol: values.symbol }, rules) : {}),
    [infinity, infValues, values.exchange, values.symbol, rules],
  );
  const infInvalid = Object.values(infErrors).some(Boolean);
  // Issue 40: the orders sized by a total investment (InvestmentSizing.tsx, the server's sizing)
  const invest = useInvestment({
    idp: editing ? `edit-${bot!.id}` : `new-${botType.toLowerCase()}`,
    stored: bot?.investment,
    ladder: infinity || fieldErrors.entryPrice || fieldErrors.numOfOrders || fieldErrors.interval ? null : { numOfOrders: Number(values.numOfOrders), interval: Number(values.interval), entryPrice: Number(values.entryPrice), leverage: leverageOf, ...(neutral ? {} : advancedGrid), ...(futures && direction !== 'long' ? { direction } : {}) },
    own: infinity ? infinitySizing(!infinity || infErrors.entryPrice || infErrors.stepPercent || infErrors.lowerPrice || infErrors.initialQuote ? null : { entryPrice: Number(values.entryPrice), stepPercent: Number(inf.stepPercent), lowerPrice: Number(inf.lowerPrice), initialQuote: Number(inf.initialQuote || 0) }) : null,
    rules,
    base: values.symbol.replace(/USDT$|USDC$/, ''),
    futures,
    current: infinity ? inf.quoteValue : values.orderSize,
    onSized: (size) => (infinity ? setInf((x) => ({ ...x, quoteValue: size })) : setValues((v) => ({ ...v, orderSize: size }))),
  });
  const infPreview = useMemo(() => {
    if (!infinity || (['entryPrice', 'stepPercent', 'quoteValue', 'lowerPrice', 'initialQuote'] as const).some((k) => infErrors[k])) return null;
    return infinityPreview(infValues, rules);
  }, [infinity, infErrors, infValues, rules]);
  // Issue 39: what the key can carry (CapacityPanel): asked once the pair and the grid size are set
  const capacityQuery: CapacityQuery | null = useMemo(() => {
    if (!exchange || !values.symbol) return null;
    const base = { exchange, symbol: values.symbol, botType, ...(editing ? { id: bot!.id } : {}) };
    if (infinity) return { ...base, style: 'infinity' as const, initialQuote: infErrors.initialQuote ? '' : inf.initialQuote };
    if (fieldErrors.numOfOrders || values.numOfOrders.trim() === '') return null;
    return { ...base, numOfOrders: values.numOfOrders.trim(), ...(futures ? { direction } : {}) };
  }, [exchange, values.symbol, values.numOfOrders, botType, editing, bot, infinity, infErrors.initialQuote, inf.initialQuote, fieldErrors.numOfOrders, futures, direction]);
  const shown = (k: keyof Values) => (submitted || touched[k] ? ((infinity ? infErrors[k as InfinityField | 'exchange' | 'symbol'] : errors[k]) ?? null) : null);
  const shownInf = (k: InfinityField) => (submitted || touched[k] ? (infErrors[k] ?? null) : null);
  const setInfField = (k: Exclude<InfinityField, 'entryPrice'>, v: string) => setInf((s) => ({ ...s, [k]: v }));

  const set = (k: keyof Values, v: string) => setValues((s) => ({ ...s, [k]: v }));
  const blur = (k: keyof Values) => () => setTouched((t) => ({ ...t, [k]: true }));
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
      // (a neutral grid needs none: an empty one is left out, issue 40)
      ...(values.takeProfit.trim() !== '' ? { takeProfit: Number(values.takeProfit) } : {}),
      ...(futures && chosenLeverage ? { leverage: chosenLeverage } : {}),
      ...(futures ? { marginMode: futuresRisk.marginMode } : {}),
      ...(neutral ? neutralStopsBody(stops, stopsBefore) : advancedBody(advanced, advancedBefore)),
      ...(above ? { confirmAboveMarket: true } : {}),
      // sent when short or neutral, or when an edit turns such a bot back to long (absent keeps the bot's)
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
    if (infinity) {
      if (infInvalid || nameProblem) return;
      dispatch(ui.showSpinner());
      const numbers = infinityNumbers(infValues) as { entryPrice: number; stepPercent: number; quoteValue?: number; lowerPrice: number };
      if (invest.active) delete numbers.quoteValue; // the server sizes it from the investment
      const res = await createBot({ userId: user.uid, style: 'infinity', exchange: values.exchange as Exchange, symbol: values.symbol, botType: 'Spot', ...numbers, ...invest.body(), ...nameBody });
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
  const tpHint = neutral ? (
    <>Not used by a neutral grid: each pair earns one interval (kept for a switch back to long or short)</>
  ) : (
    <>
      {short ? 'Bought back at the average entry price − this %' : 'Sold at the average entry price + this %'}
      {tpPrice !== null ? <span className="field__hint-extra"> (after the first fill: {usdt(tpPrice)} USDT)</span> : null}
    </>
  );

  const idp = editing ? `edit-${bot!.id}` : `new-${botType.toLowerCase()}`;
  // Issue 40, point 7: a disabled Save says why, field by field
  const blocked = (infinity ? infInvalid : invalid) || nameProblem !== null;
  // what a style changes in the list of problems: its own fields, no take profit, its stops
  const styleProblems = {
    ownFields: infinity ? { labels: INFINITY_FIELD_LABELS, errors: infErrors, sized: 'quoteValue' } : null,
    takeProfit: !neutral,
    stopErrors: neutral ? stopErrors : null,
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
      {infinity ? null : <TemplateBar idp={idp} botType={botType} editing={editing} onApply={applySettings} current={currentSettings} blockers={() => saveReasons(botFormProblems({ nameProblem: null, ...styleProblems, errors, advErrors: { ...advErrors, ...advLiqErrors }, rangeProblems: range.problems, leverageProblem: null, confirm: null, investment: invest }))} />}
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
            value={style}
            onValue={(v) => {
              const next = v === 'infinity' ? 'infinity' : 'ladder';
              if (next === 'infinity') range.setMode('ladder'); // an infinity grid has no range: its entry price is typed
              setStyle(next);
            }}
            options={[
              { value: 'ladder', label: 'Ladder (buys below the entry, one take profit)' },
              { value: 'infinity', label: 'Infinity (sells each step up, buys each step down)' },
            ]}
          />
        ) : null}
        {/* (beside the Style select, so the fields below keep their pairs in the two columns) */}
        {infinity ? (
          <p className="readout readout__sub" data-testid="infinity-note">
            The range setup, advanced settings, templates and backtest are for ladder bots only. An infinity bot cannot be edited: delete it and create another.
          </p>
        ) : !futures && !editing ? (
          <p className="readout readout__sub" data-testid="ladder-note">
            A ladder buys below the entry and sells all at the take profit; an infinity grid sells each step up and buys each step down, with no upper price.
          </p>
        ) : null}
        {neutral || infinity ? null : range.switcher}
        {neutral || infinity ? null : range.fields(submitted)}
        <Field id={`${idp}-entry`} readOnly={!neutral && !infinity && range.mode === 'range'} label="Entry Price" name="entryPrice" {...NUMERIC_INPUT} maxLength={10} value={values.entryPrice} onValue={(v) => set('entryPrice', v)} onBlur={blur('entryPrice')} error={shown('entryPrice')} hint={neutral ? 'The reference: buys below it, sells above it' : infinity ? 'The initial buy’s price and the first reference' : undefined} />
        {infinity ? (
          <>
            <InfinityFields idp={idp} values={inf} onField={setInfField} onBlur={(k) => blur(k as keyof Values)} shown={shownInf} invest={invest} submitted={submitted} />
          </>
        ) : (
          <>
        <Field id={`${idp}-orders`} readOnly={!neutral && range.mode === 'range'} label="Grid size" name="numOfOrders" inputMode="numeric" autoComplete="off" maxLength={2} value={values.numOfOrders} onValue={(v) => set('numOfOrders', v)} onBlur={blur('numOfOrders')} error={shown('numOfOrders')} hint={neutral ? 'Orders on each side: that many buys below and sells above' : `Number of ${futures && direction === 'short' ? 'sell' : 'buy'} orders`} />
        {invest.switcher}
        {invest.field(submitted)}
        <Field id={`${idp}-size`} readOnly={invest.active} label="Order size" name="orderSize" {...NUMERIC_INPUT} maxLength={12} value={values.orderSize} onValue={(v) => set('orderSize', v)} onBlur={blur('orderSize')} error={invest.active ? null : shown('orderSize')} hint={invest.active ? 'Sized by the investment' : rules && rules.amountStep > 0 ? `Coins per order, in steps of ${stepText(rules.amountStep)}` : 'Coins per order'} />
        <Field id={`${idp}-interval`} readOnly={range.mode === 'range'} label="Price interval" name="interval" {...NUMERIC_INPUT} maxLength={10} value={values.interval} onValue={(v) => set('interval', v)} onBlur={blur('interval')} error={shown('interval')} hint={neutral ? 'USDT between lines: a fill is answered one line away' : advanced.spacing === 'percent' ? `% ${futures && direction === 'short' ? 'above' : 'below'} the previous order (percent spacing)` : 'USDT between orders'} />
        {/* a neutral grid has no take profit of its own (issue 40): the field is not its */}
        {neutral ? null : <Field id={`${idp}-tp`} label="Take profit" name="takeProfit" {...NUMERIC_INPUT} maxLength={10} value={values.takeProfit} onValue={(v) => set('takeProfit', v)} onBlur={blur('takeProfit')} error={shown('takeProfit')} unit="%" hint={tpHint} />}
          </>
        )}
        {futures ? (
          <SelectField
            id={`${idp}-direction`}
            label="Direction"
            name="direction"
            value={direction}
            onValue={(v) => {
              const next = v === 'short' || v === 'neutral' ? v : 'long';
              if (next === 'neutral') range.setMode('ladder'); // a neutral grid is set by its reference, lines and interval
              setDirection(next);
            }}
            options={[
              { value: 'long', label: 'Long (buys below the entry)' },
              { value: 'short', label: 'Short (sells above the entry)' },
              { value: 'neutral', label: 'Neutral (buys and sells)' },
            ]}
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

      {above && !infinity ? (
        <div className="form-warning" role="alert" data-testid="above-market-warning">
          <p>{aboveMarketMessage(above, values.symbol.replace(/USDT$|USDC$/, ''))}.</p>
          <label className="checkbox">
            <input type="checkbox" name="confirmAboveMarket" checked={!needsConfirm} onChange={(e) => setConfirmedAbove(e.target.checked ? aboveKey : null)} />{' '}
            {above.direction === 'short' ? BELOW_MARKET_CONFIRM_LABEL : ABOVE_MARKET_CONFIRM_LABEL}
          </label>
        </div>
      ) : null}
      {infinity ? null : <div className="cost" aria-live="polite">
        <div>
          <span className="cost__label">Total cost</span>
          <span className="cost__value" data-testid="total-cost">
            {cost === null ? '—' : `${usdt(cost)} USDT`}
          </span>
        </div>
        <span className="cost__hint">{futures ? 'Minimum: 60 USDT' : 'Minimum: 20 USDT'}</span>
      </div>}
      {futures ? <FuturesRisk values={futuresRisk} onChange={setFuturesRisk} grid={futuresGrid} rules={rules} accountLeverage={leverage} editing={editing} /> : null}
      {infinity ? null : neutral ? (
        <NeutralStops idp={idp} stops={stops} onStops={setStops} errors={stopErrors} />
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
        {infinity ? <InfinityPreview preview={infPreview} /> : neutral ? <NeutralPreview grid={grid} available={available} /> : <LadderPreview grid={grid} available={available} />}
        <CapacityPanel query={capacityQuery} />
        {infinity ? null : <BacktestPanel
          botType={botType}
          values={values}
          leverage={chosenLeverage}
          direction={direction}
          disabled={invalid}
          onApply={(p) => setValues((v) => ({ ...v, interval: String(p.interval), numOfOrders: String(p.numOfOrders), takeProfit: p.takeProfit === null ? v.takeProfit : String(p.takeProfit) }))}
        />}
      </aside>
      </div>
      {(infinity ? infInvalid : invalid) && (submitted || (Object.keys(values) as (keyof Values)[]).some((k) => shown(k)) || (infinity && (Object.keys(inf) as InfinityField[]).some((k) => shownInf(k)))) ? (
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
