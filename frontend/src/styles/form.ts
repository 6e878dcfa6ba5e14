/**
 * What a style changes in the bot form (issue 42): BotForm asks the chosen style (`DashboardStyle.form`,
 * styles/registry.ts `formOffers`) and names none. A style either brings its own fields in place of the
 * ladder's (`fields`) or changes the ladder's (`ladder`: its checks, hints, preview, stops); a style with
 * neither is a ladder, and one the form does not offer (a plug-in the dashboard does not know) is not chosen.
 */
import type { ComponentType, ReactNode } from 'react';
import type { BotFieldErrors, GridNumbers, MarketContext, MarketLimits } from '@gridrocket/bots/domain/bot-market.rules';
import type { Bot, CapacityQuery, MarketRulesData } from '../api/types';
import type { OwnSizing } from '../bots/InvestmentSizing';
import type { TemplateSettings } from '../bots/templatesApi';

/** A style's own values as the form holds them (typed text; '' = empty). */
export type StyleValues = Readonly<Record<string, string>>;
/** Their messages, by field. */
export type StyleErrors = Partial<Record<string, string>>;

/** A choice in one of the form's selects. */
export interface FormOffer {
  label: string;
  /** Said beside the Style select while it is chosen. */
  note?: { testId: string; text: string };
}

export interface StyleForm {
  /** Where the form offers it: the Style select of a new spot bot (by `name`), the Direction select of a futures bot (by its words' direction). */
  offer: { spot?: FormOffer; futures?: FormOffer };
  /** Its own values: an edited bot's (or a new bot's), and a template's or a copied bot's (absent: kept as they are). */
  values?: { of(bot?: Bot): StyleValues; fromTemplate?(t: TemplateSettings): StyleValues };
  /** The entry price field's hint. */
  entryHint?: string;
  fields?: OwnFields;
  ladder?: LadderChanges;
}

/** The form's market fields with the style's own values: what its checks read. */
export type OwnFieldValues = StyleValues & { entryPrice: string; exchange: string; symbol: string };

/** A style's fields in place of the ladder's (after the entry price): its state is its `values`. */
export interface OwnFields {
  /** Its fields' labels with the market's (exchange, pair, entry price), in the form's order: what keeps Save disabled says them. */
  labels: Readonly<Record<string, string>>;
  /** The field the investment sizes in place of the ladder's order size (left out of the body then: the server sizes it). */
  sized: string;
  /** The server's messages on its values and the market's fields. */
  errors(values: OwnFieldValues, rules: MarketRulesData | null | undefined): StyleErrors;
  /** Its sizing by investment (InvestmentSizing.tsx). */
  sizing(values: OwnFieldValues, errors: StyleErrors): OwnSizing;
  /** What the capacity query asks of it, besides the pair. */
  capacity(values: StyleValues, errors: StyleErrors): Partial<CapacityQuery>;
  /** Its create body's fields (its style, market type and numbers), from valid values. */
  body(values: OwnFieldValues): Record<string, unknown>;
  Section: ComponentType<OwnSectionProps>;
  Preview: ComponentType<OwnPreviewProps>;
}

export interface OwnPreviewProps {
  values: OwnFieldValues;
  errors: StyleErrors;
  rules: MarketRulesData | null | undefined;
}

export interface OwnSectionProps {
  idp: string;
  values: StyleValues;
  onField: (k: string, v: string) => void;
  onBlur: (k: string) => () => void;
  shown: (k: string) => string | null;
  /** The investment sizing (InvestmentSizing.tsx): its switch, its field, and whether it sizes the style's sized field. */
  invest: { switcher: ReactNode; field: (submitted: boolean) => ReactNode; active: boolean };
  submitted: boolean;
}

/** What a style changes in the ladder's fields. */
export interface LadderChanges {
  /** Whether a price range can set it (RangeSetup.tsx): a grid set by its reference, lines and interval cannot. */
  range: boolean;
  hints?: { numOfOrders?: string; interval?: string };
  /** Its market checks of a valid grid, in place of the ladder's (`marketFieldErrors` of the grid). */
  marketErrors?(grid: GridNumbers, rules: MarketLimits, available: number | null, context: MarketContext): BotFieldErrors;
  /** The ladders its orders make (the entry beyond the market, the cost), in place of the grid itself. */
  ladders?(grid: GridNumbers): GridNumbers[];
  Preview?: ComponentType<{ grid: GridNumbers | null; available: number | null }>;
  /** Its stops in place of the advanced settings (whose spacing and scale are then not its: equal steps and sizes). */
  stops?: StopsForm;
}

export interface StopsSectionProps {
  idp: string;
  values: StyleValues;
  onField: (k: string, v: string) => void;
  errors: StyleErrors;
}

/** A style's stops (in its `values`). */
export interface StopsForm {
  Section: ComponentType<StopsSectionProps>;
  /**
   * Their checks against the ladder's fields, with the stops beyond the liquidation (FuturesRisk.tsx
   * liquidationStopErrors, by body field); botFormProblems says `below` and `above`.
   */
  errors(values: StyleValues, ladder: { entryPrice: string; numOfOrders: string; interval: string }, liquidation: Partial<Record<string, string>>): { below?: string; above?: string };
  /** As the futures risk check's grid fields. */
  grid(values: StyleValues): { stopLossPrice?: string; stopLossPriceAbove?: string };
  /** As the body sends them (`before`: the edited bot's, so a cleared one turns off). */
  body(values: StyleValues, before: StyleValues): Record<string, number | string>;
}
