/** Spec section 2: the privacy policy screen holds only placeholder text. */
export function PrivacyPolicy() {
  return (
    <div className="page page--narrow">
      <section className="card prose" aria-labelledby="privacy-title">
        <h1 id="privacy-title">Privacy policy</h1>
        <p>privacypolicy works!</p>
      </section>
    </div>
  );
}
