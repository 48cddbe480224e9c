import type { ReactNode } from "react";
import { Link } from "wouter";
import { paths } from "../../../lib/paths.js";
import { EarlyAccessPrice } from "./price-text.js";

export type FaqEntry = { id: string; question: string; answer: ReactNode };
export type FaqCategory = { id: string; title: string; entries: FaqEntry[] };

const inlineLink = "font-medium text-primary underline-offset-4 hover:underline";

/** The four categories of the FAQ page (docs/product.md, Public pages). */
export function faqCategories(platformName: string): FaqCategory[] {
  return [
    {
      id: "general",
      title: "General Questions",
      entries: [
        {
          id: "what-is",
          question: `What is ${platformName}?`,
          answer: (
            <>
              {platformName} is a web platform where you chat with several AI models (OpenAI, Anthropic Claude, Deepseek and Mistral), save
              Training Personalities, and build complete courses with AI help.
            </>
          ),
        },
        {
          id: "who-for",
          question: "Who is it for?",
          answer: <>Course creators, coaches, teachers and anyone who works with AI every day and wants every model in one place.</>,
        },
        {
          id: "install",
          question: "Do I need to install anything?",
          answer: <>No. Everything runs in your browser, on a computer, a tablet or a phone.</>,
        },
        {
          id: "models",
          question: "Which AI models can I use?",
          answer: (
            <>
              OpenAI, Anthropic Claude, Deepseek and Mistral. Free accounts use the models marked for the free plan; Early Access unlocks
              every premium model.
            </>
          ),
        },
      ],
    },
    {
      id: "pricing",
      title: "Pricing & Plans",
      entries: [
        {
          id: "free-plan",
          question: "Is there a free plan?",
          answer: <>Yes. Create an account and chat with the free-plan models at no cost, with no credit card.</>,
        },
        {
          id: "early-access",
          question: "What is Early Access?",
          answer: (
            <>
              A one-time payment of <EarlyAccessPrice className="font-medium text-foreground" />, not a subscription, that unlocks all
              premium AI models, unlimited course generation, custom training personalities and priority support.
            </>
          ),
        },
        {
          id: "refunds",
          question: "Can I get a refund for Early Access?",
          answer: (
            <>No. Early Access is a one-time payment and it is final: there are no refunds. Try the free plan first if you are unsure.</>
          ),
        },
        {
          id: "monthly",
          question: "Will there be monthly plans?",
          answer: (
            <>
              Yes. After early access, Starter ($19), Professional ($79) and Enterprise ($199) monthly plans follow, each with a 14-day free
              trial and no credit card required. See{" "}
              <Link href={paths.pricing} className={inlineLink}>
                Pricing
              </Link>
              .
            </>
          ),
        },
      ],
    },
    {
      id: "features",
      title: "Features & Functionality",
      entries: [
        {
          id: "personalities",
          question: "What are Training Personalities?",
          answer: <>Saved AI profiles: the instructions, tone and response settings you define once and pick in any chat.</>,
        },
        {
          id: "course-builder",
          question: "How does the Course AI Builder work?",
          answer: (
            <>
              Give it a topic and a niche and it proposes an outline of modules and lessons. Once you approve it, the AI writes the lessons
              one by one; you can stop, resume and edit everything.
            </>
          ),
        },
        {
          id: "switch-models",
          question: "Can I use different models for different chats?",
          answer: <>Yes. Choose the model when you start a chat, and compare how different providers answer the same question.</>,
        },
        {
          id: "history",
          question: "Are my chats saved?",
          answer: (
            <>
              Yes, each chat is kept in your history with a title from its first message. Turn off Save Chat History and new chats are
              temporary.
            </>
          ),
        },
      ],
    },
    {
      id: "support",
      title: "Technical Support",
      entries: [
        {
          id: "get-help",
          question: "How do I get help?",
          answer: (
            <>
              When you are signed in, the live chat inside the app is the fastest way. You can also send us a message from the{" "}
              <Link href={paths.contact} className={inlineLink}>
                contact page
              </Link>
              .
            </>
          ),
        },
        {
          id: "hours",
          question: "When is support available?",
          answer: <>Monday to Friday, 9:00 AM to 6:00 PM EST, with weekend support for priority inquiries.</>,
        },
        {
          id: "delete",
          question: "How do I delete my account and data?",
          answer: (
            <>
              Remove your data from your account settings, or ask us in the live chat to delete your account. See the{" "}
              <Link href={paths.privacy} className={inlineLink}>
                Privacy Policy
              </Link>
              .
            </>
          ),
        },
        {
          id: "browsers",
          question: "Which browsers are supported?",
          answer: <>The current versions of Chrome, Edge, Firefox and Safari, on desktop and mobile.</>,
        },
      ],
    },
  ];
}
