import { ConflictError, NotFoundError, ValidationError, fold } from '@gridrocket/shared';
import { BOT_TEMPLATE_QUOTA, BotTemplateEvent, TemplateSettings, botTemplateDecider } from './bot-template.decider';

const settings: TemplateSettings = { botType: 'Spot', exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 5, orderSize: 0.01, interval: 100, entryPrice: 60000, takeProfit: 1, leverage: 1 };
const saved = (templateId: string, name: string): BotTemplateEvent => ({ type: 'BotTemplateSaved', data: { templateId, name, settings } });
const given = (events: BotTemplateEvent[]) => fold(botTemplateDecider, events);
const save = (templateId: string, name: string) => ({ type: 'SaveBotTemplate' as const, templateId, name, settings });

describe('bot templates decider (issue 32)', () => {
  it('given no templates, when one is saved, then BotTemplateSaved carries its name and settings', () => {
    expect(botTemplateDecider.decide(save('t1', 'Wide'), given([]))).toEqual([saved('t1', 'Wide')]);
  });

  it('given a template named Wide, when another is saved as "wide", then the name is refused on name', () => {
    const decide = () => botTemplateDecider.decide(save('t2', 'wide'), given([saved('t1', 'Wide')]));
    expect(decide).toThrow(ValidationError);
    try {
      decide();
    } catch (e) {
      expect((e as ValidationError).errors).toEqual([{ field: 'name', message: 'You already have a template named wide' }]);
    }
  });

  it(`given ${BOT_TEMPLATE_QUOTA} templates, when one more is saved, then it is refused; after a delete it is saved`, () => {
    const full = Array.from({ length: BOT_TEMPLATE_QUOTA }, (_, i) => saved(`t${i}`, `T${i}`));
    expect(() => botTemplateDecider.decide(save('new', 'New'), given(full))).toThrow(ConflictError);
    const deleted: BotTemplateEvent = { type: 'BotTemplateDeleted', data: { templateId: 't3' } };
    expect(botTemplateDecider.decide(save('new', 'New'), given([...full, deleted]))).toEqual([saved('new', 'New')]);
  });

  it('given a deleted template, when it is deleted again, then it is not found; its name is free again', () => {
    const state = given([saved('t1', 'Wide'), { type: 'BotTemplateDeleted', data: { templateId: 't1' } }]);
    expect(() => botTemplateDecider.decide({ type: 'DeleteBotTemplate', templateId: 't1' }, state)).toThrow(NotFoundError);
    expect(botTemplateDecider.decide(save('t2', 'Wide'), state)).toEqual([saved('t2', 'Wide')]);
  });
});
